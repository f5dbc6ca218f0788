// Charts with uPlot: rating history on the leaderboard; moves against the optimum and time per bot on a
// match page. Data comes from JSON blocks the server wrote (no inline script).
(function () {
  'use strict';
  // Whole-number steps for axes that count matches or scrambles.
  var WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
  var COLORS = ['#2f6fdf', '#d9822b', '#2e9e5b', '#c8433a', '#7a5cc2', '#1b9aaa', '#8a6d3b', '#e05297'];
  function width(el) { return Math.max(280, el.clientWidth - 16); }
  function block(id) { var el = document.getElementById(id); return el ? JSON.parse(el.textContent) : null; }
  // Each bot's colour is the page's (the server's bot-colour.ts): distinct within the page, as in its tables.
  var colours = block('colours') || {};
  function colourOf(bot, i) { return colours[bot] || COLORS[i % COLORS.length]; }
  // Drawn charts by element id, for the page's own tests (the axis ticks a chart chose, its series colours).
  var plots = {};
  function plot(el, series, data, opts) {
    if (!el || !window.uPlot) return;
    el.textContent = '';
    // A legend of names and colours only: a live legend shows "--" for every value until the pointer is
    // over the chart, and never on a phone.
    var u = new window.uPlot(Object.assign({ width: width(el), height: 260, series: series, legend: { live: false } }, opts || {}), data, el);
    if (plots[el.id] && plots[el.id].observer) plots[el.id].observer.disconnect();
    plots[el.id] = u;
    // Follow the card's width (a phone turned sideways, a resized window); the canvas is narrower than the
    // card, so resizing it never resizes the card again.
    if (window.ResizeObserver) {
      var last = el.clientWidth;
      u.observer = new ResizeObserver(function () {
        if (el.clientWidth !== last) { last = el.clientWidth; u.setSize({ width: width(el), height: 260 }); }
      });
      u.observer.observe(el);
    }
  }
  var history = block('history');
  if (history && history.matches.length) {
    var bots = Object.keys(history.ratings);
    plot(document.getElementById('history-chart'),
      [{ label: 'match' }].concat(bots.map(function (b, i) { return { label: b, stroke: colourOf(b, i), spanGaps: true, points: { show: true } }; })),
      [history.matches].concat(bots.map(function (b) { return history.ratings[b]; })),
      { scales: { x: { time: false } }, axes: [{ label: 'after match', incrs: WHOLE }, { label: 'rating' }] });
  }
  // The SPRT's LLR after each counted scramble between its bounds A (accept H0) and B (accept H1); the
  // deciding point is drawn large. Exposed so the live page can redraw it as results arrive.
  function drawSprt(t) {
    var el = document.getElementById('sprt-chart');
    if (!el || !t || !t.trace.length) return;
    var xs = t.trace.map(function (_, i) { return i + 1; });
    var last = xs.length - 1;
    plot(el,
      [{ label: 'scrambles' },
        { label: 'LLR', stroke: COLORS[0], width: 2 },
        { label: 'A (accept H0)', stroke: '#c8433a', dash: [6, 4], points: { show: false } },
        { label: 'B (accept H1)', stroke: '#2e9e5b', dash: [6, 4], points: { show: false } },
        { label: t.decision ? t.decision + ' accepted' : 'undecided', stroke: t.decision === 'H1' ? '#2e9e5b' : '#c8433a', width: 0, points: { show: true, size: 12, width: 3 } }],
      [xs, t.trace, xs.map(function () { return t.lower; }), xs.map(function () { return t.upper; }),
        xs.map(function (_, i) { return t.decision && i === last ? t.trace[i] : null; })],
      { scales: { x: { time: false } }, axes: [{ label: 'scrambles counted', incrs: WHOLE }, { label: 'LLR' }] });
  }
  window.arenaCharts = { drawSprt: drawSprt, plots: plots };
  drawSprt(block('sprt'));
  var report = block('report');
  if (report) {
    var mbots = report.match.bots, idx = [], best = {}, moves = {}, times = {};
    mbots.forEach(function (b) { moves[b] = {}; times[b] = []; });
    report.results.forEach(function (r) {
      if (idx.indexOf(r.scramble) < 0) idx.push(r.scramble);
      best[r.scramble] = r.optimal !== undefined ? r.optimal : r.lowerBound;
      if (r.verdict === 'solved' && moves[r.bot]) moves[r.bot][r.scramble] = r.moves;
      if (times[r.bot] && r.timeMs > 0) times[r.bot].push(r.timeMs);
    });
    idx.sort(function (a, b) { return a - b; });
    plot(document.getElementById('moves-chart'),
      [{ label: 'scramble' }, { label: 'optimum or bound', stroke: '#1d232a', dash: [4, 4] }].concat(mbots.map(function (b, i) { return { label: b, stroke: colourOf(b, i), points: { show: true }, spanGaps: false }; })),
      [idx, idx.map(function (s) { return best[s]; })].concat(mbots.map(function (b) { return idx.map(function (s) { return moves[b][s] === undefined ? null : moves[b][s]; }); })),
      { scales: { x: { time: false } }, axes: [{ label: 'scramble', incrs: WHOLE }, { label: 'moves', incrs: WHOLE }] });
    // Time distribution: each bot's times sorted, as a quantile curve on a log axis.
    var longest = 0;
    mbots.forEach(function (b) { times[b].sort(function (x, y) { return x - y; }); longest = Math.max(longest, times[b].length); });
    if (longest > 0) {
      var q = [];
      for (var i = 0; i < 21; i++) q.push(i * 5);
      plot(document.getElementById('time-chart'),
        [{ label: 'percentile' }].concat(mbots.map(function (b, i) { return { label: b, stroke: colourOf(b, i), points: { show: true } }; })),
        [q].concat(mbots.map(function (b) { var t = times[b]; return q.map(function (p) { return t.length ? t[Math.min(t.length - 1, Math.floor(p / 100 * t.length))] : null; }); })),
        { scales: { x: { time: false }, y: { distr: 3 } }, axes: [{ label: 'percentile of answers' }, { label: 'ms (log)' }] });
    }
  }
})();
