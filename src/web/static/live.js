// Live match page: server-sent events report progress as results are committed (by whichever process
// plays the match); on each change the scramble rows are fetched again as server-escaped HTML.
(function () {
  'use strict';
  var table = document.getElementById('scrambles');
  if (!table || table.dataset.live !== '1' || !window.EventSource) return;
  var id = table.dataset.match;
  var events = new EventSource('/api/matches/' + id + '/events');
  events.addEventListener('progress', function (e) {
    var p = JSON.parse(e.data);
    var bar = document.getElementById('progress');
    bar.max = p.total; bar.value = p.done;
    document.getElementById('progress-text').textContent = p.done + ' / ' + p.total + ' results';
    var status = document.getElementById('status');
    status.textContent = p.status; status.className = 'status ' + p.status;
    fetch('/matches/' + id + '/rows').then(function (r) { return r.text(); }).then(function (html) {
      document.getElementById('scramble-rows').innerHTML = html;
    });
    if (document.getElementById('sprt-chart') && window.arenaCharts) {
      fetch('/api/matches/' + id + '/sprt').then(function (r) { return r.json(); }).then(window.arenaCharts.drawSprt);
    }
    if (p.status !== 'running') events.close();
  });
})();
