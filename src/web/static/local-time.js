// Every <time datetime> the server wrote (in UTC, zone named) is rewritten in the reader's own time zone,
// as "2026-11-27 08:33 CET": the same shape as the server's text, so columns keep their width.
(function () {
  'use strict';
  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function zone(d) {
    try {
      var parts = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' }).formatToParts(d);
      for (var i = 0; i < parts.length; i++) if (parts[i].type === 'timeZoneName') return parts[i].value;
    } catch (e) { /* an old browser: the time without its zone's name */ }
    return '';
  }
  var times = document.querySelectorAll('time[datetime]');
  for (var i = 0; i < times.length; i++) {
    var d = new Date(times[i].getAttribute('datetime'));
    if (isNaN(d.getTime())) continue;
    var text = d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' + pad(d.getHours()) + ':' + pad(d.getMinutes());
    var z = zone(d);
    times[i].textContent = z ? text + ' ' + z : text;
    times[i].dataset.local = '1';
  }
})();
