// The report's timelines: one canvas per policy on one shared, zoomable and
// pannable time axis, drawn from each run's timeline summary (the JSON in
// #timeline-data, sim/timeline/TimelineSummary.hpp):
// - a lane per rank (or group of ranks) shows, per pixel column, the share
//   of each state, from the exact intervals where the summary kept them and
//   from the finest fitting level of bucket shares elsewhere;
// - a message lane shows how many messages were posted per column;
// - message arrows and progress-chunk marks are drawn (as SVG, so that they
//   can be inspected) only when few are in view, and an arrow only when it
//   is at least 2 px long (shorter, it would cross the lanes vertically);
// - nothing is drawn after a run's end (a deadlock ends it): that part is
//   greyed.
// The view can be set by the URL fragment (#t0=SECONDS&t1=SECONDS), the
// "zoom to" list, the mouse wheel (zoom), dragging (pan) and double-click
// (whole run). After each drawing #render-info says what was drawn, and
// data-load-ms on <body> when the first drawing was done.
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  var DENSITY_HEIGHT = 16, LABEL_WIDTH = 92, RIGHT_MARGIN = 36, MAX_ARROWS = 1000, MIN_ARROW_PX = 2, MAX_CHUNK_MARKS = 800;
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var runs = data.runs;
  // Lanes are taller when there are few of them.
  var mostLanes = 1;
  runs.forEach(function (run) { mostLanes = Math.max(mostLanes, run.summary.lanes.count); });
  var LANE_HEIGHT = mostLanes <= 4 ? 24 : mostLanes <= 16 ? 16 : 12;
  var end = 0;
  runs.forEach(function (run) { end = Math.max(end, run.summary.end); });
  if (!(end > 0)) end = 1e-9;
  var view = { t0: 0, t1: end };

  // ---- time units ---------------------------------------------------------
  var UNITS = [[1, 's'], [1e-3, 'ms'], [1e-6, '\u00b5s'], [1e-9, 'ns']];
  function unitFor(magnitude) {
    for (var i = 0; i < UNITS.length; ++i)
      if (magnitude >= UNITS[i][0]) return UNITS[i];
    return UNITS[UNITS.length - 1];
  }
  // `t` in the unit that suits `magnitude`, with the decimals `step` needs.
  function formatTime(t, step, magnitude) {
    var unit = unitFor(Math.abs(magnitude === undefined ? t : magnitude));
    var decimals = step > 0 ? Math.max(0, Math.min(9, Math.ceil(-Math.log10(step / unit[0]) - 1e-9))) : 3;
    return (t / unit[0]).toFixed(decimals) + ' ' + unit[1];
  }
  function formatDuration(d) {
    var unit = unitFor(Math.abs(d));
    var v = d / unit[0];
    return (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + ' ' + unit[1];
  }
  window.progsimFormatTime = formatDuration;

  function niceStep(span, count) {
    var raw = span / count, magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    var factors = [1, 2, 5, 10];
    for (var i = 0; i < factors.length; ++i)
      if (magnitude * factors[i] >= raw) return magnitude * factors[i];
    return magnitude * 10;
  }

  // ---- the summary's encodings ----------------------------------------------
  // Run-length text of fixed-width tokens ("tok*N;": tok N times) as runs:
  // starts[r] is the first bucket of run r (starts[runs] = buckets), values
  // its `width` digits (base 36). Kept as runs, not per bucket: a fine level
  // has half a million buckets per lane.
  function decodeRuns(text, width) {
    var starts = [0], values = [], b = 0, i = 0;
    while (i < text.length) {
      var token = text.substr(i, width);
      i += width;
      var repeat = 1;
      if (text.charAt(i) === '*') {
        var stop = text.indexOf(';', i);
        repeat = parseInt(text.substring(i + 1, stop), 10);
        i = stop + 1;
      }
      for (var k = 0; k < width; ++k) values.push(parseInt(token.charAt(k), 36));
      b += repeat;
      starts.push(b);
    }
    return { starts: Int32Array.from(starts), values: Uint8Array.from(values), width: width };
  }
  // Calls visit(first, last, values, offset) for each run overlapping buckets [b0, b1].
  function eachRun(runs, b0, b1, visit) {
    var lo = 0, hi = runs.starts.length - 2;
    while (lo < hi) {  // the run holding b0
      var mid = (lo + hi + 1) >> 1;
      if (runs.starts[mid] <= b0) lo = mid; else hi = mid - 1;
    }
    for (var r = lo; r < runs.starts.length - 1 && runs.starts[r] <= b1; ++r)
      visit(Math.max(runs.starts[r], b0), Math.min(runs.starts[r + 1] - 1, b1), runs.values, r * runs.width);
  }
  function level(run, index) {
    var l = run.summary.levels[index];
    if (!l.decoded) {
      var states = run.summary.states.length;
      l.decoded = {
        lanes: l.lanes.map(function (text) { return decodeRuns(text, states); }),
        messages: decodeRuns(l.messages, 1)
      };
    }
    return l;
  }

  // Whether tile k keeps its events exactly; per run, as a Uint8Array.
  function exactTiles(run) {
    if (!run.exactTiles) {
      var tiles = new Uint8Array(run.summary.tiles.count);
      run.summary.tiles.exact.forEach(function (range) {
        for (var k = range[0]; k <= range[1]; ++k) tiles[k] = 1;
      });
      run.exactTiles = tiles;
    }
    return run.exactTiles;
  }
  // The parts of [a, b] in tiles that keep their events exactly (exact
  // true) or in the others (false), merged.
  function tileParts(run, a, b, exact) {
    var s = run.summary, tileWidth = s.end / s.tiles.count, tiles = exactTiles(run), parts = [];
    var k0 = Math.max(0, Math.floor(a / tileWidth)), k1 = Math.min(s.tiles.count - 1, Math.floor(b / tileWidth - 1e-9));
    for (var k = k0; k <= k1; ++k) {
      if (!tiles[k] !== !exact) continue;
      var lo = Math.max(a, k * tileWidth), hi = Math.min(b, (k + 1) * tileWidth);
      if (hi <= lo) continue;
      if (parts.length && parts[parts.length - 1][1] >= lo) parts[parts.length - 1][1] = hi;
      else parts.push([lo, hi]);
    }
    return parts;
  }

  // ---- drawing -------------------------------------------------------------
  function plotWidth() {
    var box = document.getElementById('timelines');
    return Math.max(300, Math.floor((box ? box.clientWidth : 1200) - LABEL_WIDTH - RIGHT_MARGIN));
  }
  function xOf(t, width) { return LABEL_WIDTH + (t - view.t0) / (view.t1 - view.t0) * width; }

  // Adds `seconds` of state `s` spread over [a, b] to the columns it covers.
  function spread(acc, states, width, a, b, s, seconds) {
    var span = view.t1 - view.t0, colWidth = span / width;
    var lo = Math.max(a, view.t0), hi = Math.min(b, view.t1);
    if (hi <= lo) return;
    var density = seconds / (b - a);
    var x0 = Math.floor((lo - view.t0) / colWidth), x1 = Math.min(width - 1, Math.floor((hi - view.t0) / colWidth));
    for (var x = x0; x <= x1; ++x) {
      var c0 = view.t0 + x * colWidth, c1 = c0 + colWidth;
      var overlap = Math.min(hi, c1) - Math.max(lo, c0);
      if (overlap > 0) acc[x * states + s] += overlap * density;
    }
  }

  // Per lane, per column, per state: seconds of rank-time.
  function laneShares(run, width) {
    var s = run.summary, states = s.states.length, lanes = s.lanes.count, g = s.lanes.ranks_per_lane;
    var acc = [];
    for (var lane = 0; lane < lanes; ++lane) acc.push(new Float64Array(width * states));
    var colWidth = (view.t1 - view.t0) / width, tiles = exactTiles(run);
    // The coarsest level whose buckets are no wider than a column, else the finest.
    var index = s.levels.length - 1;
    for (var i = 0; i < s.levels.length; ++i)
      if (s.end / s.levels[i].buckets <= colWidth) { index = i; break; }
    var l = level(run, index), bucketWidth = s.end / l.buckets;
    var b0 = Math.max(0, Math.floor(view.t0 / bucketWidth)), b1 = Math.min(l.buckets - 1, Math.floor(Math.min(view.t1, s.end) / bucketWidth));
    var full = bucketWidth * g / s.share_steps;
    for (lane = 0; lane < lanes; ++lane) {
      eachRun(l.decoded.lanes[lane], b0, b1, function (first, last, values, offset) {
        // The parts of these buckets whose tiles are not drawn from exact events.
        var parts = tileParts(run, first * bucketWidth, (last + 1) * bucketWidth, false);
        for (var st = 0; st < states; ++st) {
          var q = values[offset + st];
          if (!q) continue;
          for (var k = 0; k < parts.length; ++k)
            spread(acc[lane], states, width, parts[k][0], parts[k][1], st, q * full * (parts[k][1] - parts[k][0]) / bucketWidth);
        }
      });
    }
    var drawn = 0;
    s.intervals.forEach(function (iv) {
      if (iv[3] <= view.t0 || iv[2] >= view.t1) return;
      ++drawn;
      tileParts(run, Math.max(iv[2], view.t0), Math.min(iv[3], view.t1), true).forEach(function (part) {
        spread(acc[Math.floor(iv[0] / g)], states, width, part[0], part[1], iv[1], part[1] - part[0]);
      });
    });
    return { acc: acc, level: index, exactIntervals: drawn };
  }

  function messageDensity(run, width) {
    var s = run.summary, counts = new Float64Array(width), colWidth = (view.t1 - view.t0) / width;
    var tiles = exactTiles(run), l = level(run, 0);
    for (var i = 0; i < s.levels.length; ++i)
      if (s.end / s.levels[i].buckets <= colWidth) { l = level(run, i); break; }
    if (s.end / l.buckets > colWidth) l = level(run, s.levels.length - 1);
    var bucketWidth = s.end / l.buckets;
    var b0 = Math.max(0, Math.floor(view.t0 / bucketWidth)), b1 = Math.min(l.buckets - 1, Math.floor(Math.min(view.t1, s.end) / bucketWidth));
    eachRun(l.decoded.messages, b0, b1, function (first, last, values, offset) {
      var code = values[offset];
      if (!code) return;
      // Buckets partly in exact tiles count only for their other part.
      for (var b = first; b <= last; ++b) {
        var parts = tileParts(run, b * bucketWidth, (b + 1) * bucketWidth, false);
        for (var k = 0; k < parts.length; ++k) {
          var x = Math.floor(((parts[k][0] + parts[k][1]) / 2 - view.t0) / colWidth);
          if (x >= 0 && x < width) counts[x] += Math.pow(2, code - 1) * (parts[k][1] - parts[k][0]) / bucketWidth;
        }
      }
    });
    s.messages.forEach(function (m) {
      if (m[2] < view.t0 || m[2] >= view.t1 || !tiles[Math.min(s.tiles.count - 1, Math.floor(m[2] / s.end * s.tiles.count))]) return;
      counts[Math.floor((m[2] - view.t0) / colWidth)] += 1;
    });
    return counts;
  }

  function drawRun(run, panel, width) {
    var s = run.summary, states = s.states.length, lanes = s.lanes.count, g = s.lanes.ranks_per_lane;
    var height = lanes * LANE_HEIGHT + DENSITY_HEIGHT + 4;
    var canvas = panel.querySelector('canvas'), overlay = panel.querySelector('svg.overlay');
    canvas.width = LABEL_WIDTH + width;
    canvas.height = height;
    overlay.setAttribute('width', LABEL_WIDTH + width);
    overlay.setAttribute('height', height);
    var ctx = canvas.getContext('2d');
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.font = '10px sans-serif';
    ctx.fillStyle = '#333';
    for (var lane = 0; lane < lanes; ++lane) {
      var first = lane * g, last = Math.min(s.ranks, first + g) - 1;
      ctx.fillText(g === 1 ? 'rank ' + first : 'ranks ' + first + '\u2013' + last, 4, lane * LANE_HEIGHT + LANE_HEIGHT / 2 + 3);
    }
    ctx.fillText('messages', 4, lanes * LANE_HEIGHT + 12);

    var shares = laneShares(run, width), colWidth = (view.t1 - view.t0) / width, full = colWidth * g;
    for (lane = 0; lane < lanes; ++lane) {
      var acc = shares.acc[lane], top = lane * LANE_HEIGHT + 1, h = LANE_HEIGHT - 2;
      for (var st = 0; st < states; ++st) {
        ctx.fillStyle = data.colors[s.states[st]];
        // Runs of equal columns as one rectangle.
        var runStart = -1, runBase = 0, runHeight = 0;
        for (var x = 0; x <= width; ++x) {
          var base = 0, height_ = 0;
          if (x < width) {
            for (var below = 0; below < st; ++below) base += acc[x * states + below];
            base = Math.round(Math.min(1, base / full) * h);
            height_ = Math.round(Math.min(1, acc[x * states + st] / full) * h);
            if (height_ === 0 && acc[x * states + st] > 0) height_ = 1;
          }
          if (runStart >= 0 && (x === width || base !== runBase || height_ !== runHeight)) {
            if (runHeight > 0) ctx.fillRect(LABEL_WIDTH + runStart, top + h - runBase - runHeight, x - runStart, runHeight);
            runStart = -1;
          }
          if (runStart < 0 && x < width) { runStart = x; runBase = base; runHeight = height_; }
        }
      }
    }
    var density = messageDensity(run, width), maxCount = 0;
    for (x = 0; x < width; ++x) maxCount = Math.max(maxCount, density[x]);
    ctx.fillStyle = '#555';
    var densityTop = lanes * LANE_HEIGHT + 2;
    for (x = 0; x < width; ++x)
      if (density[x] > 0) {
        var dh = Math.max(1, Math.round(Math.log2(1 + density[x]) / Math.log2(1 + maxCount) * DENSITY_HEIGHT));
        ctx.fillRect(LABEL_WIDTH + x, densityTop + DENSITY_HEIGHT - dh, 1, dh);
      }
    // After the run's end, or where the event cap stopped the recording: no
    // data, greyed; the end of a deadlocked run in red.
    var endX = xOf(s.end, width), dataEndX = xOf(s.truncated ? s.truncated_at : s.end, width);
    if (dataEndX < LABEL_WIDTH + width) {
      ctx.fillStyle = 'rgba(120,120,120,0.18)';
      ctx.fillRect(Math.max(LABEL_WIDTH, dataEndX), 0, LABEL_WIDTH + width - Math.max(LABEL_WIDTH, dataEndX), height);
    }
    if (endX >= LABEL_WIDTH && endX <= LABEL_WIDTH + width && s.outcome !== 'completed') {
      ctx.fillStyle = '#d62728';
      ctx.fillRect(endX - 1, 0, 2, height);
    }
    var overlayCounts = drawOverlay(run, overlay, width);
    panel.dataset.level = shares.level;
    panel.dataset.exactIntervals = shares.exactIntervals;
    panel.dataset.arrows = overlayCounts.arrows;
    panel.dataset.chunkMarks = overlayCounts.chunks;
  }

  function svg(name, attributes, title) {
    var e = document.createElementNS(SVG_NS, name);
    for (var key in attributes) e.setAttribute(key, attributes[key]);
    if (title) {
      var t = document.createElementNS(SVG_NS, 'title');
      t.textContent = title;
      e.appendChild(t);
    }
    return e;
  }

  // Message arrows and chunk marks, only when few are in view.
  function drawOverlay(run, overlay, width) {
    while (overlay.firstChild) overlay.removeChild(overlay.firstChild);
    var s = run.summary, g = s.lanes.ranks_per_lane;
    // Arrows reaching out of the view stop at its edges, off the rank labels.
    var clipId = 'clip-' + run.policy, clip = svg('clipPath', { id: clipId });
    clip.appendChild(svg('rect', { x: LABEL_WIDTH, y: 0, width: width, height: overlay.getAttribute('height') }));
    overlay.appendChild(clip);
    var layer = svg('g', { 'clip-path': 'url(#' + clipId + ')' });
    overlay.appendChild(layer);
    var inView = function (t) { return t >= view.t0 && t <= view.t1; };
    // A message shorter than MIN_ARROW_PX would be a vertical line across
    // the lanes: it is left to the message lane.
    var messages = s.messages.filter(function (m) {
      return (inView(m[2]) || inView(m[3]) || (m[2] < view.t0 && m[3] > view.t1)) &&
             xOf(m[3], width) - xOf(m[2], width) >= MIN_ARROW_PX;
    });
    var chunks = s.chunks.filter(function (c) { return inView(c[1]); });
    var counts = { arrows: 0, chunks: 0 };
    var yOf = function (rank) { return Math.floor(rank / g) * LANE_HEIGHT + LANE_HEIGHT / 2; };
    if (messages.length <= MAX_ARROWS) {
      messages.forEach(function (m) {
        layer.appendChild(svg('line', {
          'class': 'message', 'data-source': m[0], 'data-dest': m[1], 'data-post': m[2], 'data-complete': m[3],
          x1: xOf(m[2], width).toFixed(1), y1: yOf(m[0]), x2: xOf(m[3], width).toFixed(1), y2: yOf(m[1]),
          'marker-end': 'url(#arrowhead)'
        }, m[4] + ' B, tag ' + m[5] + ', rank ' + m[0] + ' \u2192 rank ' + m[1] + ', ' +
           formatDuration(m[3] - m[2]) + ' from the send\'s start to the receive\'s completion'));
      });
      counts.arrows = messages.length;
    }
    if (chunks.length <= MAX_CHUNK_MARKS) {
      chunks.forEach(function (c) {
        var x = xOf(c[1], width), y = Math.floor(c[0] / g) * LANE_HEIGHT;
        var executor = s.executors[c[2]];
        layer.appendChild(svg('path', {
          'class': 'chunk', 'data-rank': c[0], 'data-executor': executor, 'data-time': c[1], 'data-what': s.names[c[3]],
          d: 'M' + (x - 3).toFixed(1) + ',' + y + ' l6,0 l-3,5 z', fill: data.colors['chunk:' + executor] || '#7f7f7f'
        }, 'progress chunk of rank ' + c[0] + ' run by ' + executor + ': ' + s.names[c[3]]));
      });
      counts.chunks = chunks.length;
    }
    return counts;
  }

  function drawAxis(width) {
    var axis = document.getElementById('time-axis');
    axis.setAttribute('width', LABEL_WIDTH + width + RIGHT_MARGIN);
    while (axis.firstChild) axis.removeChild(axis.firstChild);
    var span = view.t1 - view.t0, step = niceStep(span, 8), magnitude = Math.max(Math.abs(view.t0), Math.abs(view.t1));
    var labels = [];
    for (var t = Math.ceil(view.t0 / step) * step; t <= view.t1 + step * 1e-9; t += step) {
      var x = xOf(t, width), label = formatTime(t, step, magnitude);
      axis.appendChild(svg('line', { 'class': 'tick', x1: x, x2: x, y1: 16, y2: 22 }));
      var text = svg('text', { x: x, y: 12, 'text-anchor': 'middle', 'class': 'tick-label' });
      text.textContent = label;
      axis.appendChild(text);
      labels.push(label);
    }
    return labels;
  }

  function render() {
    var width = plotWidth();
    var labels = drawAxis(width);
    var info = document.getElementById('render-info');
    var panels = document.querySelectorAll('.policy-timeline');
    var arrows = 0, marks = 0;
    for (var k = 0; k < panels.length; ++k) {
      drawRun(runs[k], panels[k], width);
      arrows += +panels[k].dataset.arrows;
      marks += +panels[k].dataset.chunkMarks;
    }
    info.dataset.t0 = view.t0;
    info.dataset.t1 = view.t1;
    info.dataset.ticks = labels.join('|');
    info.dataset.arrows = arrows;
    info.dataset.chunkMarks = marks;
    document.getElementById('view-text').textContent =
      formatTime(view.t0, (view.t1 - view.t0) / 1000, view.t1) + ' \u2013 ' + formatTime(view.t1, (view.t1 - view.t0) / 1000) +
      ' (' + formatDuration(view.t1 - view.t0) + ' shown of ' + formatDuration(end) + ')';
  }

  function setView(t0, t1) {
    var span = Math.max(t1 - t0, 1e-10);
    if (span > end) span = end;
    t0 = Math.max(0, Math.min(t0, end - span));
    view.t0 = t0;
    view.t1 = t0 + span;
    render();
  }
  window.progsimSetView = setView;

  // ---- interaction ---------------------------------------------------------
  function timeAtClientX(clientX, element) {
    var rect = element.getBoundingClientRect(), width = plotWidth();
    var x = Math.min(Math.max(clientX - rect.left - LABEL_WIDTH, 0), width);
    return view.t0 + x / width * (view.t1 - view.t0);
  }
  function zoom(factor, center) {
    if (center === undefined) center = (view.t0 + view.t1) / 2;
    setView(center - (center - view.t0) * factor, center + (view.t1 - center) * factor);
  }
  document.querySelectorAll('.lane-box').forEach(function (box) {
    box.addEventListener('wheel', function (event) {
      event.preventDefault();
      zoom(event.deltaY < 0 ? 0.8 : 1.25, timeAtClientX(event.clientX, box));
    }, { passive: false });
    var dragFrom = null;
    box.addEventListener('mousedown', function (event) { dragFrom = { x: event.clientX, t0: view.t0, t1: view.t1 }; });
    window.addEventListener('mouseup', function () { dragFrom = null; });
    window.addEventListener('mousemove', function (event) {
      if (!dragFrom) return;
      var dt = (dragFrom.x - event.clientX) / plotWidth() * (dragFrom.t1 - dragFrom.t0);
      setView(dragFrom.t0 + dt, dragFrom.t1 + dt);
    });
    box.addEventListener('dblclick', function () { setView(0, end); });
  });
  document.getElementById('zoom-in').addEventListener('click', function () { zoom(0.5); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoom(2); });
  document.getElementById('zoom-all').addEventListener('click', function () { setView(0, end); });
  document.querySelectorAll('#zoom-to [data-t0]').forEach(function (button) {
    button.addEventListener('click', function () {
      // An instant (a deadlock) gets a microsecond on each side.
      var t0 = +button.dataset.t0, t1 = +button.dataset.t1, margin = t1 > t0 ? (t1 - t0) * 0.15 : 1e-6;
      setView(t0 - margin, t1 + margin);
    });
  });
  window.addEventListener('resize', render);

  function fromFragment() {
    var params = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
      var kv = pair.split('=');
      if (kv.length === 2) params[kv[0]] = decodeURIComponent(kv[1]);
    });
    if (params.t0 !== undefined && params.t1 !== undefined && +params.t1 > +params.t0) setView(+params.t0, +params.t1);
    else render();
  }
  window.addEventListener('hashchange', fromFragment);
  fromFragment();
})();
