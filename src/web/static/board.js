// Draws a neutral scene (src/puzzles/scene.ts) on a canvas: a grid of toned cells or pegs of discs.
// The viewer never knows which puzzle it shows; each puzzle kind describes its own picture.
(function () {
  'use strict';
  var TONES = ['#ffffff', '#f3c77a', '#8fd19e', '#e9edf2'];
  function drawGrid(ctx, s, w, hgt) {
    var cell = Math.min(w / s.cols, hgt / s.rows);
    ctx.font = Math.max(8, Math.floor(cell * 0.42)) + 'px system-ui, sans-serif';
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    for (var i = 0; i < s.labels.length; i++) {
      var r = Math.floor(i / s.cols), c = i % s.cols;
      ctx.fillStyle = TONES[s.tones[i]] || '#ccc';
      ctx.fillRect(c * cell, r * cell, cell, cell);
      if (cell >= 6) { ctx.strokeStyle = '#c9d0d8'; ctx.strokeRect(c * cell + 0.5, r * cell + 0.5, cell - 1, cell - 1); }
      if (s.labels[i] !== 0 && cell >= 14) { ctx.fillStyle = '#1d232a'; ctx.fillText(String(s.labels[i]), c * cell + cell / 2, r * cell + cell / 2); }
    }
  }
  function drawPegs(ctx, s, w, hgt) {
    var n = s.pegs.length, slot = w / n, base = hgt - 24;
    var discH = Math.max(1, Math.min(48, (base - 40) / Math.max(1, s.discs)));
    ctx.fillStyle = '#1d232a'; ctx.fillRect(0, base, w, 3);
    ctx.font = '14px system-ui, sans-serif'; ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    for (var p = 0; p < n; p++) {
      var cx = slot * p + slot / 2;
      ctx.fillStyle = '#9aa4b0'; ctx.fillRect(cx - 2, base - discH * s.discs - 10, 4, discH * s.discs + 10);
      ctx.fillStyle = '#1d232a'; ctx.fillText(s.pegs[p], cx, base + 6);
      var stack = s.stacks[p];
      for (var k = 0; k < stack.length; k++) {
        var d = stack[k], dw = 12 + (slot - 20) * d / s.discs;
        var onGoal = s.goal.charAt(d - 1) === s.pegs[p];
        ctx.fillStyle = onGoal ? '#8fd19e' : '#f3c77a';
        ctx.fillRect(cx - dw / 2, base - (k + 1) * discH, dw, Math.max(1, discH - 1));
      }
    }
  }
  window.drawScene = function (canvas, scene) {
    var ctx = canvas.getContext('2d');
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (scene.layout === 'grid') drawGrid(ctx, scene, canvas.width, canvas.height);
    else drawPegs(ctx, scene, canvas.width, canvas.height);
  };
})();
