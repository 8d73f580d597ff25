/**
 * The page's script, inlined into its `<script>`. It reads the JSON blocks and draws everything with
 * DOM calls and `textContent`, never `innerHTML`, so no string of the data becomes markup. Links are
 * only the relative ones the renderer built. Plain ES2017 in a string (the core package has no DOM
 * types); the browser tests in test/view/ run it. It must hold no backtick, `${`, `</script` or `<!--`
 * (a unit test checks).
 */
export const PAGE_SCRIPT = String.raw`(function () {
'use strict';
var data = JSON.parse(document.getElementById('gz-data').textContent);
var allDetails = null;
function details(index) {
  // The details are parsed on the first click only: a big report opens without reading them.
  if (allDetails === null) allDetails = JSON.parse(document.getElementById('gz-details').textContent);
  return allDetails[index] || {};
}
var app = document.getElementById('app');

var LABEL = { passed: 'pass', failed: 'fail', timedOut: 'timeout', tampered: 'tampered', agentError: 'agent error',
  overBudget: 'over budget', harnessError: 'harness error', notRun: 'not run' };
var ERRORS = { agentError: 1, harnessError: 1, notRun: 1, overBudget: 1 };

function el(tag, cls, text) {
  var node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
function put(parent) {
  for (var i = 1; i < arguments.length; i++) {
    var child = arguments[i];
    if (child === null || child === undefined) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return parent;
}
function isNum(x) { return typeof x === 'number' && isFinite(x); }
function pct(x) { return isNum(x) ? Math.round(x * 100) + '%' : '-'; }
function ms(x) {
  if (!isNum(x)) return '-';
  return x >= 10000 ? (x / 1000).toFixed(1) + ' s' : Math.round(x) + ' ms';
}
function tokens(x) {
  if (!isNum(x)) return '-';
  if (x >= 1e6) return (x / 1e6).toFixed(1) + 'M';
  if (x >= 1e4) return (x / 1e3).toFixed(1) + 'k';
  return String(x);
}
function cost(x, estimate) { return isNum(x) ? '$' + x.toFixed(4) + (estimate ? ' (est.)' : '') : '-'; }
function str(x) { return typeof x === 'string' ? x : x === undefined || x === null ? '' : String(x); }
function label(outcome) { return LABEL[outcome] || str(outcome); }
function pill(outcome) { return el('span', 'pill ' + (LABEL[outcome] ? outcome : 'neutral'), label(outcome)); }
function safeHref(href) {
  // The renderer builds only relative, percent-encoded links; anything else is shown, not linked.
  return typeof href === 'string' && href !== '' && !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(href) &&
    href.charAt(0) !== '/' && href.charAt(0) !== '\\' ? href : null;
}
function fileLink(file, text) {
  if (!file || typeof file.path !== 'string') return null;
  var href = safeHref(file.href);
  if (href === null) return el('code', null, text || file.path);
  var a = el('a', null, text || file.path);
  a.setAttribute('href', href);
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  a.title = file.path;
  return a;
}
function panel(title) {
  var section = el('section', 'panel');
  if (title) put(section, el('h2', null, title));
  return section;
}
function table(headers, numeric) {
  var t = el('table', 'data');
  var tr = el('tr');
  headers.forEach(function (h, i) { put(tr, el('th', numeric && numeric[i] ? 'num' : null, h)); });
  put(t, put(el('thead'), tr));
  var body = el('tbody');
  put(t, body);
  return { table: t, body: body };
}
function row(body, cells, numeric) {
  var tr = el('tr');
  cells.forEach(function (cell, i) {
    var td = el('td', numeric && numeric[i] ? 'num' : null);
    if (cell !== null && typeof cell === 'object') put(td, cell); else td.textContent = str(cell);
    put(tr, td);
  });
  put(body, tr);
  return tr;
}
function kv(pairs) {
  var dl = el('dl', 'kv');
  pairs.forEach(function (pair) {
    if (pair[1] === undefined || pair[1] === null || pair[1] === '') return;
    var dd = el('dd');
    if (typeof pair[1] === 'object') put(dd, pair[1]); else dd.textContent = str(pair[1]);
    put(dl, el('dt', null, pair[0]), dd);
  });
  return dl;
}
function pre(text, cls) { return el('pre', cls || null, text); }
function rateColour(rate) {
  // Red through amber to green by pass rate, light enough for dark text.
  var hue = Math.round(4 + 126 * Math.max(0, Math.min(1, rate)));
  return 'hsl(' + hue + ', 62%, ' + (rate >= 1 ? 80 : 84) + '%)';
}
function header(title, metaText, pills) {
  var top = el('header', 'top');
  put(top, el('h1', null, title), el('span', 'meta', metaText));
  var counts = el('div', 'counts');
  pills.forEach(function (p) { put(counts, p); });
  put(top, counts);
  return top;
}

if (data.kind === 'compare') renderComparison(data); else renderReport(data);

// ---------------------------------------------------------------- report

function renderReport(data) {
  document.title = str(data.title) || 'gz-bench report';
  var agents = data.agents || [''];
  var cases = data.cases || [];
  var rows = data.rows || [];
  var outcomes = data.outcomes || [];
  var tags = data.tags || [];
  var single = agents.length === 1 && agents[0] === '';
  var summary = data.summary || {};
  var meta = data.meta || {};
  var metaText = [meta.gzBenchVersion ? 'gz-bench ' + meta.gzBenchVersion : '', meta.vitestVersion ? 'Vitest ' + meta.vitestVersion : '']
    .filter(Boolean).join(' · ');
  var pills = [el('span', 'pill neutral', str(summary.total) + ' runs'), el('span', 'pill passed', str(summary.passed) + ' passed')];
  if (summary.failed) pills.push(el('span', 'pill failed', str(summary.failed) + ' failed'));
  if (summary.notRun) pills.push(el('span', 'pill notRun', str(summary.notRun) + ' not run'));
  put(app, header(str(data.title) || 'gz-bench report', metaText, pills));
  var main = el('main');
  put(app, main);

  if (data.errors && data.errors.length) {
    var errors = panel('Suite errors');
    data.errors.forEach(function (e) { put(errors, put(el('div', 'warn-box'), el('b', null, str(e.file) + ': '), str(e.message))); });
    put(main, errors);
  }
  var board = data.scoreboard;
  if (board && board.agents && board.agents.length) put(main, agentsPanel(board));
  if (board && board.arms && board.arms.length) put(main, armsPanel(board.arms));
  if (data.baseline) put(main, baselinePanel(data.baseline));
  if (data.sweep && data.sweep.length) put(main, sweepPanel(data.sweep));

  // Trials of each (case, agent) cell, in trial order.
  var cells = {};
  rows.forEach(function (r, index) {
    var key = r[0] * agents.length + r[1];
    (cells[key] || (cells[key] = [])).push(index);
  });
  Object.keys(cells).forEach(function (key) { cells[key].sort(function (a, b) { return rows[a][2] - rows[b][2]; }); });
  var verdicts = {};
  if (board && board.cells) board.cells.forEach(function (c) { verdicts[c[0] * agents.length + c[1]] = c[2] === 1; });
  var suites = {};
  cases.forEach(function (c) { suites[c[0] + '\u0000' + c[1]] = 1; });
  var manySuites = Object.keys(suites).length > 1;

  var results = panel('Results');
  put(main, results);
  if (rows.length === 0) {
    put(results, el('div', 'empty-state', 'This report has no results.'));
    return;
  }
  var state = { agent: -1, outcome: -1, tag: -1, q: '', limit: 500 };
  var filters = el('div', 'filters');
  function select(name, options, onChange) {
    var s = el('select');
    s.name = name;
    options.forEach(function (o) { var opt = el('option', null, o[1]); opt.value = String(o[0]); put(s, opt); });
    s.addEventListener('change', function () { onChange(Number(s.value)); state.limit = 500; draw(); });
    put(filters, put(el('label', null, name), s));
    return s;
  }
  if (!single) select('agent', [[-1, 'all agents']].concat(agents.map(function (a, i) { return [i, a]; })), function (v) { state.agent = v; });
  var present = {};
  rows.forEach(function (r) { present[r[3]] = 1; });
  select('outcome', [[-1, 'all outcomes']].concat(outcomes.map(function (o, i) { return [i, label(o)]; }).filter(function (o) { return present[o[0]]; })),
    function (v) { state.outcome = v; });
  if (tags.length) select('tag', [[-1, 'all tags']].concat(tags.map(function (t, i) { return [i, t]; })), function (v) { state.tag = v; });
  var search = el('input');
  search.type = 'search';
  search.name = 'search';
  search.placeholder = 'case, suite, file or error';
  var timer = 0;
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { state.q = search.value.toLowerCase(); state.limit = 500; draw(); }, 120);
  });
  put(filters, put(el('label', null, 'search'), search));
  var shown = el('span', 'note');
  put(filters, shown);
  put(results, filters);
  var wrap = el('div', 'grid-wrap');
  put(results, wrap);
  var more = el('div', 'more');
  put(results, more);
  if (single) put(results, el('p', 'note', 'One command, no agents: one column. Click a cell for its trials.'));
  else put(results, el('p', 'note', 'A cell is passes/trials of one agent on one case, coloured by pass rate; ~ flaky (some trials passed, some did not), ! a trial ended in an error, not an answer; ✓/✗ the cell verdict by the rule. Click a cell for its trials.'));

  function matches(index) {
    var r = rows[index];
    if (state.outcome >= 0 && r[3] !== state.outcome) return false;
    if (state.tag >= 0 && r[5].indexOf(state.tag) < 0) return false;
    if (state.q !== '') {
      var c = cases[r[0]];
      var hay = (c[0] + ' ' + c[1] + ' ' + c[2] + ' ' + agents[r[1]] + ' ' + r[6]).toLowerCase();
      if (hay.indexOf(state.q) < 0) return false;
    }
    return true;
  }
  var selectedButton = null;
  function draw() {
    var columns = state.agent >= 0 ? [state.agent] : agents.map(function (_, i) { return i; });
    var t = el('table', 'grid');
    var head = el('tr');
    put(head, el('th', 'case', 'case'));
    columns.forEach(function (a) { put(head, el('th', null, single ? 'result' : agents[a])); });
    put(t, put(el('thead'), head));
    var body = el('tbody');
    var count = 0, drawn = 0, lastSuite = null;
    for (var ci = 0; ci < cases.length; ci++) {
      var hits = [];
      var any = false;
      for (var k = 0; k < columns.length; k++) {
        var list = cells[ci * agents.length + columns[k]] || [];
        var matching = list.filter(matches);
        if (matching.length) any = true;
        hits.push(matching);
      }
      if (!any) continue;
      count++;
      if (drawn >= state.limit) continue;
      drawn++;
      var c = cases[ci];
      var suiteKey = c[0] + '\u0000' + c[1];
      if (manySuites && suiteKey !== lastSuite) {
        var g = el('tr', 'group');
        var gtd = put(el('td', null, c[1]), el('span', 'suite', '  ' + c[0]));
        gtd.colSpan = columns.length + 1;
        put(body, put(g, gtd));
      }
      lastSuite = suiteKey;
      var tr = el('tr');
      var name = el('td', 'case', c[2]);
      name.title = c[1] + ' > ' + c[2] + '  (' + c[0] + ')';
      put(tr, name);
      for (var j = 0; j < columns.length; j++) put(tr, put(el('td'), cellButton(ci, columns[j], hits[j])));
      put(body, tr);
    }
    put(t, body);
    wrap.textContent = '';
    put(wrap, t);
    shown.textContent = count + ' of ' + cases.length + ' cases';
    more.textContent = '';
    if (count > drawn) {
      var b = el('button', 'link', 'show ' + Math.min(500, count - drawn) + ' more of ' + (count - drawn) + ' cases not drawn');
      b.addEventListener('click', function () { state.limit += 500; draw(); });
      put(more, b);
    }
  }
  function cellButton(ci, a, matching) {
    var key = ci * agents.length + a;
    var list = cells[key] || [];
    var b = el('button', 'cell');
    b.type = 'button';
    if (list.length === 0) { b.className = 'cell empty'; b.textContent = '–'; b.disabled = true; return b; }
    if (matching.length === 0) { b.className = 'cell empty'; b.textContent = '·'; b.title = 'no trial matches the filters'; b.dataset.cell = ci + ',' + a; b.disabled = true; return b; }
    var passes = 0, errors = 0;
    var counts = {};
    list.forEach(function (index) {
      var o = outcomes[rows[index][3]];
      if (o === 'passed') passes++;
      if (ERRORS[o]) errors++;
      counts[label(o)] = (counts[label(o)] || 0) + 1;
    });
    var rate = passes / list.length;
    b.style.background = rateColour(rate);
    b.dataset.cell = ci + ',' + a;
    if (list.length === 1) b.textContent = label(outcomes[rows[list[0]][3]]).toUpperCase();
    else b.textContent = passes + '/' + list.length;
    var marks = (passes > 0 && passes < list.length ? '~' : '') + (errors > 0 ? '!' : '');
    if (marks) put(b, el('span', 'marks', marks));
    var verdict = verdicts[key];
    if (verdict !== undefined && list.length > 1) put(b, el('span', 'verdict-mark', verdict ? '✓' : '✗'));
    b.title = Object.keys(counts).map(function (k) { return counts[k] + ' ' + k; }).join(', ');
    b.addEventListener('click', function () {
      if (selectedButton) selectedButton.classList.remove('selected');
      selectedButton = b;
      b.classList.add('selected');
      openCell(ci, a, list, matching);
    });
    return b;
  }
  draw();

  var drawer = el('aside');
  drawer.id = 'drawer';
  put(document.body, drawer);
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') drawer.classList.remove('open'); });

  function openCell(ci, a, list, matching) {
    var c = cases[ci];
    drawer.textContent = '';
    var close = el('button', 'close', '×');
    close.title = 'close (Esc)';
    close.addEventListener('click', function () { drawer.classList.remove('open'); });
    put(drawer, close, el('h2', null, c[2]));
    put(drawer, el('div', 'note', c[1] + ' · ' + c[0] + (single ? '' : ' · agent ' + agents[a])));
    var strip = el('div', 'trials');
    var body = el('div', 'trial-body');
    put(drawer, strip, body);
    var buttons = [];
    function show(position) {
      buttons.forEach(function (btn, i) { btn.classList.toggle('selected', i === position); });
      body.textContent = '';
      renderTrial(body, list[position]);
    }
    list.forEach(function (index, position) {
      var r = rows[index];
      var btn = el('button', 'trial');
      btn.type = 'button';
      btn.dataset.row = String(index);
      put(btn, (r[2] ? '#' + r[2] + ' ' : ''), pill(outcomes[r[3]]), ' ' + ms(r[4]));
      btn.addEventListener('click', function () { show(position); });
      buttons.push(btn);
      put(strip, btn);
    });
    // First the trial the filters point at, failing ones before passing ones.
    var first = 0;
    for (var i = 0; i < list.length; i++) {
      if (matching.indexOf(list[i]) >= 0 && (first === 0 && matching.indexOf(list[0]) < 0 || outcomes[rows[list[i]][3]] !== 'passed')) { first = i; if (outcomes[rows[list[i]][3]] !== 'passed') break; }
    }
    show(first);
    drawer.classList.add('open');
    drawer.scrollTop = 0;
  }
}

function agentsPanel(board) {
  var section = panel('Agents');
  var numeric = [false, true, false, true, true, true, true, true, true, true, true, false];
  var t = table(['agent', 'score', '95% interval', 'cells', 'trials', 'failed', 'errors', 'median', 'tokens in/out', 'cached', 'cost', 'models'], numeric);
  board.agents.forEach(function (agent) {
    var interval = agent.interval || {};
    var bar = el('span', 'bar');
    if (isNum(interval.low) && isNum(interval.high)) {
      var range = el('span', 'range');
      range.style.left = (interval.low * 100) + '%';
      range.style.width = Math.max(1, (interval.high - interval.low) * 100) + '%';
      put(bar, range);
    }
    if (isNum(agent.passRate)) { var point = el('span', 'point'); point.style.left = 'calc(' + (agent.passRate * 100) + '% - 1px)'; put(bar, point); }
    var usage = agent.usage || {};
    row(t.body, [
      el('b', null, str(agent.name)),
      pct(agent.passRate),
      put(el('span'), bar, pct(interval.low) + '–' + pct(interval.high)),
      str(agent.cellsPassed) + '/' + str(agent.cases),
      str(agent.trials),
      str(agent.wrong),
      str(agent.errors),
      ms(agent.medianDurationMs),
      isNum(usage.inputTokens) || isNum(usage.outputTokens) ? tokens(usage.inputTokens) + ' / ' + tokens(usage.outputTokens) : '-',
      tokens(usage.cachedInputTokens),
      cost(usage.costUsd, usage.costIsEstimate),
      (usage.models || []).map(str).join(', ') || '-',
    ], numeric);
  });
  put(section, t.table);
  var v = board.verdict;
  if (v && v.leader !== undefined) {
    var line = el('div', 'verdict');
    if (v.winner !== undefined) put(line, el('b', null, str(v.winner)), ' leads ' + str(v.runnerUp) + ': ');
    else put(line, el('b', null, 'within noise: '), str(v.leader) + ' vs ' + str(v.runnerUp) + ', ');
    put(line, pct(v.leaderPassRate) + ' vs ' + pct(v.runnerUpPassRate) + ', p = ' + (isNum(v.pValue) ? Number(v.pValue.toPrecision(2)) : '-') +
      ' on ' + str(v.pairedCases) + ' paired cases');
    put(section, line);
  }
  var rule = board.rule;
  var ruleText = rule === 'all' ? 'a cell passes when all its trials pass' : rule === 'any' ? 'a cell passes when any trial passes' :
    isNum(rule) ? 'a cell passes when at least ' + pct(rule) + ' of its trials pass' : 'a cell passes when more than half of its trials pass';
  put(section, el('div', 'note', ruleText + '; the interval is clustered by case; (est.) marks the agent’s own cost estimate'));
  return section;
}

function armsPanel(arms) {
  var section = panel('Skill arms');
  var numeric = [false, false, true, true, true, false, true, true, true, true, true];
  var t = table(['agent', 'arm', 'pass', 'baseline', 'difference (95% interval)', 'verdict', 'skill used', 'Δ tokens', 'Δ cost', 'Δ turns', 'Δ time'], numeric);
  function points(x) { if (!isNum(x)) return '-'; var v = Math.round(x * 100); return (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v); }
  function delta(x, format) { return isNum(x) ? (x > 0 ? '+' : x < 0 ? '−' : '±') + format(Math.abs(x)) : '-'; }
  arms.forEach(function (a) {
    var interval = a.interval || {};
    var effect = a.effect === 'helps' ? 'passed' : a.effect === 'hurts' ? 'failed' : 'neutral';
    var verdict = el('span', 'pill ' + effect, a.effect === 'noEvidence' ? 'no evidence' : str(a.effect));
    var trigger = a.trigger ? str(a.trigger.used) + '/' + str(a.trigger.trials) + ' (' + pct(a.trigger.rate) + ')' : '-';
    var d = a.deltas || {};
    row(t.body, [
      a.agentName === undefined ? '-' : str(a.agentName), str(a.arm), pct(a.passRate), pct(a.baselinePassRate) + ' (' + str(a.baseline) + ')',
      points(a.difference) + ' pts (' + points(interval.low) + ' to ' + points(interval.high) + ')', verdict, trigger,
      delta(d.tokens, function (x) { return String(Math.round(x)); }), delta(d.costUsd, function (x) { return '$' + x.toFixed(4); }),
      delta(d.turns, function (x) { return x.toFixed(1); }), delta(d.durationMs, function (x) { return (x / 1000).toFixed(1) + ' s'; }),
    ], numeric);
  });
  put(section, t.table);
  put(section, el('div', 'note', 'helps / hurts: the 95% interval of the pass-rate difference, paired by case over the cases both arms ran, lies above / below 0; no evidence otherwise. Δ: mean per trial, arm minus baseline.'));
  return section;
}

function baselinePanel(b) {
  var section = panel('Baseline');
  put(section, el('div', null, [
    str(b.regressions) + ' regressions', str(b.improvements) + ' improvements', str(b.knownFailures) + ' known failures',
    str(b.same) + ' same', str(b.new) + ' new',
  ].join(' · ') + (b.stale ? ' · baseline stale: run with -u' : '')));
  if (b.changes && b.changes.length) {
    var t = table(['case', 'agent', 'file', 'change', 'baseline', 'now', 'p']);
    b.changes.forEach(function (c) {
      var from = c.from || {}, to = c.to || {};
      row(t.body, [str(c.caseId), str(c.agentName), str(c.file), pill(c.verdict === 'regression' ? 'failed' : 'passed'),
        str(from.passes) + '/' + str(from.trials), str(to.passes) + '/' + str(to.trials), isNum(c.p) ? Number(c.p.toPrecision(2)) : '-']);
      var cellPill = t.body.lastChild.childNodes[3].firstChild;
      cellPill.textContent = str(c.verdict);
    });
    put(section, t.table);
  }
  if (b.obsolete && b.obsolete.length) put(section, el('div', 'note', b.obsolete.length + ' obsolete baseline entries'));
  return section;
}

function sweepPanel(sweep) {
  var section = panel('Family sweep');
  var numeric = [false, false, true, false, true, true, true, true];
  var t = table(['family', 'kind', 'size', 'agent', 'passed', 'calls', 'ideal', 'concurrency'], numeric);
  sweep.forEach(function (s) {
    row(t.body, [str(s.family), str(s.kind), str(s.size), str(s.agent), str(s.passes) + '/' + str(s.trials), str(s.calls), str(s.idealCalls), str(s.maxConcurrency)], numeric);
  });
  put(section, t.table);
  return section;
}

function renderTrial(body, index) {
  var d = details(index);
  put(body, kv([
    ['outcome', pill(d.outcome)],
    ['time', ms(d.durationMs)],
    ['failed at', d.failedStep],
    ['attempts', d.attempts],
    ['sandbox', d.sandbox],
    ['tags', (d.tags || []).join(', ')],
    ['metadata', d.meta],
    ['baseline', d.baseline ? str(d.baseline.verdict) + (isNum(d.baseline.trials) ? ' (was ' + str(d.baseline.passes) + '/' + str(d.baseline.trials) + ')' : '') : ''],
    ['workspace', d.workspace],
  ]));
  if (d.error) put(body, el('h3', null, 'Error'), el('div', 'error-box', d.error));
  (d.retried || []).forEach(function (r) { put(body, el('div', 'warn-box', 'an earlier attempt ended: ' + label(r.outcome) + (r.error ? ': ' + r.error : ''))); });
  if (d.tampered && d.tampered.length) put(body, el('div', 'warn-box', 'protected paths changed (restored before the checks): ' + d.tampered.join(', ')));
  if (d.warnings && d.warnings.length) {
    put(body, el('h3', null, 'Warnings'));
    d.warnings.forEach(function (w) { put(body, el('div', 'warn-box', w)); });
  }
  if (d.skills && d.skills.length) {
    put(body, el('h3', null, 'Skills'));
    var st = table(['skill', 'advertised', 'used', 'step', 'how', 'edited by the agent']);
    d.skills.forEach(function (s) {
      var yes = function (v) { return v === true ? 'yes' : v === false ? 'no' : 'unknown'; };
      row(st.body, [str(s.name), yes(s.advertised), yes(s.used), isNum(s.step) ? String(s.step) : '-',
        s.route === 'tool' ? 'tool ' + str(s.tool) : s.route === 'read' ? 'read ' + str(s.tool) : '-', (s.edits || []).join(', ') || '-']);
    });
    put(body, st.table);
  }
  if (d.checks && d.checks.length) {
    put(body, el('h3', null, 'Checks'));
    d.checks.forEach(function (c) {
      var box = el('div', 'check');
      var head = el('div', 'head');
      put(head, pill(c.skipped ? 'notRun' : c.passed ? 'passed' : 'failed'), el('span', 'kind', c.kind));
      if (c.skipped) head.firstChild.textContent = 'skipped';
      (c.fields || []).forEach(function (f) { put(head, el('span', 'field', f[0] + ': ' + f[1])); });
      if (isNum(c.exitCode)) put(head, el('span', 'note', 'exit ' + c.exitCode));
      if (c.timedOut) put(head, el('span', 'note', 'timed out'));
      if (c.log) put(head, fileLink(c.log, 'log'));
      put(box, head);
      if (c.message) put(box, el('div', 'error-box', c.message));
      if (c.tail) put(box, pre(c.tail));
      put(body, box);
    });
  }
  renderChanges(body, d.changes);
  renderTrajectory(body, d);
  var agent = d.agent;
  if (agent) {
    put(body, el('h3', null, 'Agent'));
    var u = agent.usage || {};
    put(body, kv([
      ['exit code', agent.exitCode === null ? (agent.signal ? 'killed by ' + agent.signal : 'none') : agent.exitCode],
      ['timed out', agent.timedOut ? 'yes' : ''],
      ['time', ms(agent.durationMs)],
      ['output', isNum(agent.outputBytes) ? agent.outputBytes + ' bytes' : ''],
      ['tokens in / out', isNum(u.inputTokens) || isNum(u.outputTokens) ? tokens(u.inputTokens) + ' / ' + tokens(u.outputTokens) : ''],
      ['cached', isNum(u.cachedInputTokens) ? tokens(u.cachedInputTokens) : ''],
      ['cache writes', isNum(u.cacheWriteTokens) ? tokens(u.cacheWriteTokens) : ''],
      ['cost', isNum(u.costUsd) ? cost(u.costUsd, u.estimate) : ''],
      ['model', u.model],
      ['turns', u.turns],
      ['tool calls', u.toolCalls],
      ['log', fileLink(agent.log)],
    ]));
  }
  if (d.setupLogs && d.setupLogs.length) {
    put(body, el('h3', null, 'Setup logs'));
    var logs = el('div');
    d.setupLogs.forEach(function (f) { put(logs, fileLink(f), ' '); });
    put(body, logs);
  }
  if (d.family) put(body, el('h3', null, 'Family'), pre(d.family));
}

function renderChanges(body, ch) {
  if (!ch) return;
  put(body, el('h3', null, 'Changes'));
  var line = el('div');
  put(line, el('span', 'plus', '+' + ch.linesAdded), ' ', el('span', 'minus', '−' + ch.linesRemoved), '  ·  ' +
    ch.added + ' added, ' + ch.modified + ' modified, ' + ch.deleted + ' deleted');
  if (ch.file) put(line, '  ·  ', fileLink(ch.file, 'changes.diff'));
  put(body, line);
  if (ch.files && ch.files.length) {
    var t = table(['file', 'status', '+', '−', ''], [false, false, true, true, false]);
    t.table.classList.add('files');
    ch.files.forEach(function (f) {
      var notes = [f.binary ? 'binary' : '', f.tooLarge ? 'too large to inline' : '', f.symlink ? 'symlink' : '', f.mode ? 'mode ' + f.mode : '']
        .filter(Boolean).join(', ');
      var tr = row(t.body, [f.path, f.status, isNum(f.add) ? '+' + f.add : '', isNum(f.del) ? '−' + f.del : '', notes], [false, false, true, true, false]);
      tr.childNodes[1].className = 'st-' + (['added', 'modified', 'deleted'].indexOf(f.status) >= 0 ? f.status : 'other');
      tr.childNodes[2].classList.add('plus');
      tr.childNodes[3].classList.add('minus');
    });
    put(body, t.table);
    if (ch.unlisted) put(body, el('div', 'note', ch.unlisted + ' more files not listed'));
  }
  var ex = ch.excerpt;
  if (ex && typeof ex.text === 'string') {
    var box = el('pre', 'diff');
    ex.text.split('\n').forEach(function (text, i, all) {
      if (i === all.length - 1 && text === '') return;
      var cls = '';
      if (/^(diff |index |--- |\+\+\+ |Binary |new file|deleted file|old mode|new mode|similarity|rename )/.test(text)) cls = 'file';
      else if (text.slice(0, 2) === '@@') cls = 'hunk';
      else if (text.charAt(0) === '+') cls = 'add';
      else if (text.charAt(0) === '-') cls = 'del';
      put(box, el('span', cls || null, text === '' ? ' ' : text));
    });
    put(body, box);
    if (ex.cut) put(body, el('div', 'note', 'The page shows the first ' + Math.round(ex.text.length / 1024) + ' KiB of ' + Math.round(ex.fileBytes / 1024) + ' KiB; open changes.diff for all of it.'));
  } else if (ex && ex.missing) {
    put(body, el('div', 'note', 'diff ' + ex.missing));
  }
  if (ch.truncated) put(body, el('div', 'note', 'The diff itself was cut at the suite’s bound; it says so at its end.'));
}

function renderTrajectory(body, d) {
  var tr = d.trajectory;
  var agent = d.agent || {};
  if (!tr) {
    if (typeof agent.tail === 'string' && agent.tail !== '') {
      var h = el('h3', null, 'Agent output (its last part; no trajectory) ');
      put(body, h, pre(agent.tail));
      if (agent.log) put(body, put(el('div', 'note'), 'all of it: ', fileLink(agent.log)));
    }
    return;
  }
  put(body, el('h3', null, 'Trajectory'));
  var line = el('div', 'note');
  put(line, str(tr.steps) + ' steps, ' + str(tr.toolCalls) + ' tool calls' + (tr.format ? ' (' + tr.format + ')' : '') + (tr.truncated ? ', cut at the bounds' : ''));
  if (tr.file) put(line, '  ·  ', fileLink(tr.file, 'trajectory.json'));
  if (agent.log) put(line, '  ·  ', fileLink(agent.log, 'agent.log'));
  put(body, line);
  var ex = tr.excerpt;
  if (!ex || !ex.steps) {
    if (ex && ex.missing) put(body, el('div', 'note', 'trajectory ' + ex.missing));
    return;
  }
  var list = el('div', 'steps');
  ex.steps.forEach(function (step) { put(list, renderStep(step)); });
  put(body, list);
  if (ex.omittedSteps) put(body, el('div', 'note', ex.omittedSteps + ' more steps are not embedded in the page; open trajectory.json for them.'));
}

function stepTokens(t) {
  if (!t) return null;
  var parts = [];
  if (isNum(t.in)) parts.push('in ' + tokens(t.in));
  if (isNum(t.out)) parts.push('out ' + tokens(t.out));
  if (isNum(t.cached)) parts.push('cached ' + tokens(t.cached));
  if (isNum(t.cost)) parts.push(cost(t.cost));
  return parts.length ? el('span', 'tok', parts.join(' · ')) : null;
}

function renderStep(step) {
  var source = step.source === 'user' || step.source === 'system' ? step.source : 'agent';
  var box = el('div', 'step ' + source);
  var who = el('div', 'who');
  put(who, el('b', null, source === 'user' ? 'prompt' : source === 'system' ? 'system' : 'agent'), el('span', null, 'step ' + str(step.id)));
  if (step.model) put(who, el('span', null, step.model));
  if (step.time) put(who, el('span', null, step.time));
  put(who, stepTokens(step.tokens));
  put(box, who);
  if (step.reasoning) {
    var r = el('details');
    put(r, el('summary', null, 'reasoning'), el('div', 'msg', step.reasoning));
    put(box, r);
  }
  if (step.text) put(box, el('div', 'msg', step.text));
  (step.calls || []).forEach(function (call) {
    var c = el('details', 'call' + (call.isError ? ' error' : ''));
    var summary = el('summary');
    put(summary, el('b', null, call.name), ' ');
    if (call.command) put(summary, el('code', null, '$ ' + firstLine(call.command)));
    else put(summary, el('code', null, firstLine(call.brief || '')));
    if (call.isError) put(summary, ' ', el('span', 'pill failed', 'error'));
    put(c, summary);
    if (call.command) {
      put(c, el('div', 'note', 'command'), pre('$ ' + call.command));
      var args = el('details');
      put(args, el('summary', 'note', 'arguments'), pre(call.args || ''));
      put(c, args);
    } else put(c, el('div', 'note', 'arguments'), pre(call.args || ''));
    if (call.result !== undefined) put(c, el('div', 'note', 'result'), pre(call.result));
    put(box, c);
  });
  (step.results || []).forEach(function (text) { put(box, el('div', 'note', 'result'), pre(text)); });
  return box;
}
function firstLine(text) {
  var line = str(text).split('\n')[0];
  return line.length > 160 ? line.slice(0, 160) + '…' : line;
}

// ---------------------------------------------------------------- comparison

function tally(t) { return t ? str(t.passes) + '/' + str(t.trials) + (t.notRun ? ' (' + t.notRun + ' not run)' : '') : '-'; }
function verdictPill(v) { return el('span', 'pill ' + (v === 'regression' ? 'failed' : v === 'improvement' ? 'passed' : 'neutral'), str(v)); }
function delta(d, format) {
  if (!d || (!isNum(d.base) && !isNum(d.head))) return '-';
  var text = format(d.base) + ' → ' + format(d.head);
  if (isNum(d.delta)) text += ' (' + (d.delta > 0 ? '+' : '') + format(d.delta) + ')';
  return text;
}
function renderComparison(data) {
  var cmp = data.comparison || {};
  document.title = str(data.title) || 'gz-bench comparison';
  var base = cmp.base || {}, head = cmp.head || {};
  put(app, header(str(data.title) || 'gz-bench comparison', str(base.path) + ' → ' + str(head.path), [verdictPill(cmp.verdict)]));
  var main = el('main');
  put(app, main);
  var top = panel('Verdict');
  put(top, put(el('div', 'verdict'), verdictPill(cmp.verdict), ' ', str(cmp.reason)));
  var bt = base.totals || {}, ht = head.totals || {};
  put(top, el('div', 'note', 'base ' + str(bt.passes) + '/' + str(bt.trials) + ' trials passed → head ' + str(ht.passes) + '/' + str(ht.trials)));
  put(main, top);
  var agents = cmp.agents || [];
  if (agents.length) {
    var ap = panel('Agents');
    var t = table(['agent', 'base', 'head', 'pass rate change', 'p', 'regressions', 'improvements', 'verdict', 'why']);
    agents.forEach(function (a) {
      var paired = a.paired || {};
      row(t.body, [el('b', null, str(a.name)), tally(a.base), tally(a.head),
        isNum(paired.meanDifference) ? (paired.meanDifference > 0 ? '+' : '') + (paired.meanDifference * 100).toFixed(1) + ' points' : '-',
        isNum(paired.pValue) ? Number(paired.pValue.toPrecision(2)) : '-', str(a.regressions), str(a.improvements), verdictPill(a.verdict), str(a.reason)]);
    });
    put(ap, t.table);
    put(main, ap);
  }
  var cells = cmp.cells || [];
  var changed = cells.filter(function (c) {
    return c.flip || (c.change && c.change.verdict !== 'unchanged') || !c.base || !c.head || c.base.passes !== c.head.passes || c.base.trials !== c.head.trials;
  });
  var cp = panel('Changed cells');
  if (changed.length) {
    var ct = table(['case', 'suite', 'agent', 'base', 'head', 'flip', 'change', 'p']);
    changed.forEach(function (c) {
      var ch = c.change;
      var p = ch ? (ch.verdict === 'improvement' ? ch.pBetter : ch.pWorse) : undefined;
      row(ct.body, [el('b', null, str(c.id)), str(c.suite), str(c.agent), tally(c.base), tally(c.head),
        c.flip === 'passToFail' ? 'pass → fail' : c.flip === 'failToPass' ? 'fail → pass' : '',
        ch ? verdictPill(ch.verdict === 'unchanged' ? 'within noise' : ch.verdict) : 'not compared', isNum(p) ? Number(p.toPrecision(2)) : '-']);
    });
    put(cp, ct.table);
  } else put(cp, el('div', 'empty-state', 'No cell changed.'));
  put(cp, el('div', 'note', (cells.length - changed.length) + ' of ' + cells.length + ' cells in both reports did not change.'));
  put(main, cp);
  [['New cells (only in head)', cmp.newCells], ['Removed cells (only in base)', cmp.removedCells]].forEach(function (part) {
    if (!part[1] || !part[1].length) return;
    var p = panel(part[0]);
    var t = table(['case', 'suite', 'agent', 'trials']);
    part[1].forEach(function (c) { row(t.body, [str(c.id), str(c.suite), str(c.agent), tally(c.tally)]); });
    put(p, t.table);
    put(main, p);
  });
  var d = cmp.deltas;
  if (d) {
    var dp = panel('Duration, tokens and cost');
    put(dp, kv([
      ['duration', delta(d.durationMs, ms)],
      ['tokens in', delta(d.inputTokens, tokens)],
      ['tokens out', delta(d.outputTokens, tokens)],
      ['cost', delta(d.costUsd, function (x) { return cost(x, false); }) + (d.costIsEstimate ? ' (the agents’ own estimates)' : '')],
    ]));
    put(main, dp);
  }
}
})();
`;
