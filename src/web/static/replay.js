// Replay controls: the server replays a stored answer to the requested move, so a 16-million-move answer
// is never sent to the browser. Boards side by side step together.
(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('replay').textContent);
  var boards = Array.prototype.slice.call(document.querySelectorAll('.board'));
  var slider = document.getElementById('slider'), gotoBox = document.getElementById('goto');
  var longest = Number(slider.max), at = 0, timer = null, pending = 0;
  function show(i) {
    at = Math.max(0, Math.min(longest, i));
    slider.value = String(at); gotoBox.value = String(at);
    var ticket = ++pending;
    return Promise.all(specs.map(function (s, k) {
      var url = '/api/replay/' + s.match + '/' + s.scramble + '/' + encodeURIComponent(s.bot) + '?at=' + Math.min(at, s.total);
      return fetch(url).then(function (r) { return r.json(); }).then(function (f) {
        if (ticket !== pending) return;
        var b = boards[k];
        window.drawScene(b.querySelector('canvas'), f.scene);
        b.querySelector('.index').textContent = String(f.index);
        b.querySelector('.state').textContent = JSON.stringify(f.state);
        b.dataset.index = String(f.index);
      });
    })).then(function () { if (ticket === pending) document.body.dataset.at = String(at); });
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; document.getElementById('play').textContent = 'Play'; } }
  function play() {
    if (timer) return stop();
    var rate = Number(document.getElementById('speed').value);
    var step = Math.max(1, Math.round(rate / 20));
    document.getElementById('play').textContent = 'Pause';
    timer = setInterval(function () { if (at >= longest) return stop(); show(at + step); }, 1000 / Math.min(rate, 20));
  }
  document.getElementById('start').addEventListener('click', function () { stop(); show(0); });
  document.getElementById('end').addEventListener('click', function () { stop(); show(longest); });
  document.getElementById('back').addEventListener('click', function () { stop(); show(at - 1); });
  document.getElementById('fwd').addEventListener('click', function () { stop(); show(at + 1); });
  document.getElementById('play').addEventListener('click', play);
  slider.addEventListener('input', function () { stop(); show(Number(slider.value)); });
  gotoBox.addEventListener('change', function () { stop(); show(Number(gotoBox.value)); });
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowRight') { stop(); show(at + 1); } else if (e.key === 'ArrowLeft') { stop(); show(at - 1); } else if (e.key === ' ') { e.preventDefault(); play(); }
  });
  show(0);
})();
