/*
 * egprof's HTML report (export/html.h): draws the page from the JSON in
 * #egprof-data, the documents --format json writes.  Embedded at build
 * time; it fetches nothing (the page's Content-Security-Policy forbids it).
 *
 * Sections: a sortable table of the functions (every column; the diff's
 * verdicts as the diff model gives them: `significant`, `within_noise`;
 * rank statistics' `imbalanced`), an icicle graph of the call paths (click
 * a frame to zoom; in a diff each path's colour follows its verdict from
 * the egprof-pathdiff document), the call graph graphviz drew, the rank
 * heat map.  '/' focuses the search by function name; Enter zooms the
 * icicle graph to the first match; Esc clears.
 *
 * For tests: window.egprof holds the data and a few entry points, and
 * <html data-egprof-ready> is set when everything is drawn, with
 * data-egprof-render-ms the time the script took.
 */
(function () {
	'use strict';
	var t0 = performance.now(), timing = {}, last = t0;
	/* where the time goes, for bench/html/render.sh */
	function mark(name) {
		var now = performance.now();
		timing[name] = Math.round((now - last) * 10) / 10;
		last = now;
	}
	var data = JSON.parse(document.getElementById('egprof-data').textContent);
	mark('parse');
	var kind = data.kind;
	var MAX_ROWS = 250;	/* rows drawn at first; "show all" draws the rest */

	function $(id) { return document.getElementById(id); }
	function templateText(id) {
		var t = $(id);
		return t ? t.content.textContent : '';
	}
	function el(tag, attrs, kids) {
		var e = document.createElement(tag);
		for (var k in attrs || {}) {
			if (k === 'text') e.textContent = attrs[k];
			else if (k === 'cls') e.className = attrs[k];
			else e.setAttribute(k, attrs[k]);
		}
		(kids || []).forEach(function (c) {
			if (c !== null && c !== undefined)
				e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
		});
		return e;
	}
	function num(v, digits) {
		return v === null || v === undefined ? '' : Number(v).toFixed(digits);
	}
	function signed(v, digits) {
		if (v === null || v === undefined) return '';
		var s = Number(v).toFixed(digits);
		return v > 0 ? '+' + s : s;
	}
	function int(v) { return v === null || v === undefined ? '' : String(v); }

	/* ------------------------------------------------------------------ */
	/* Header                                                              */

	var kindText = {
		'profile': 'profile',
		'diff': 'differential profile: baseline minus second run (positive = time the second run no longer spends)',
		'rank-stats': 'statistics across MPI ranks'
	}[kind];
	var filters = templateText('egprof-filters');
	/* what every number of the page is, said once (model/analysis.h) */
	var source = templateText('egprof-source');
	var header = el('header', {}, [
		el('h1', { text: templateText('egprof-title') }),
		el('div', { cls: 'sub', text: kindText + ' \u2014 ' + data.generator +
			(filters ? ' \u2014 only ' + filters : '') }),
		source ? el('div', { cls: 'sub', id: 'source', text: source }) : null,
		el('div', { cls: 'bar' }, [
			el('input', { id: 'search', type: 'search', placeholder: 'function name (press /)',
				'aria-label': 'search functions' }),
			el('span', { id: 'search-info' }),
			el('nav', { id: 'nav' })
		])
	]);
	document.body.appendChild(header);
	var main = el('main');
	document.body.appendChild(main);
	var tip = el('div', { id: 'tip' });
	document.body.appendChild(tip);

	function section(id, title, note) {
		var s = el('section', { id: id }, [el('h2', { text: title })]);
		if (note) s.appendChild(el('p', { cls: 'note', text: note }));
		main.appendChild(s);
		$('nav').appendChild(el('a', { href: '#' + id, text: title }));
		return s;
	}

	/* ------------------------------------------------------------------ */
	/* Tables                                                              */

	/* cols: {key, label, text (left-aligned), value(row), show(row),
	 * cls(row)}; the first column is the function's name. */
	function Table(parent, cols, rows, sortKey, sortDesc) {
		this.cols = cols;
		this.rows = rows;
		this.sortKey = sortKey;
		this.sortDesc = sortDesc;
		this.limit = MAX_ROWS;
		this.query = '';
		this.wrap = el('div', { cls: 'tablewrap' });
		this.more = el('div', { cls: 'more-rows' });
		parent.appendChild(this.wrap);
		parent.appendChild(this.more);
		this.render();
	}
	Table.prototype.col = function (key) {
		return this.cols.filter(function (c) { return c.key === key; })[0];
	};
	Table.prototype.render = function () {
		var self = this, col = this.col(this.sortKey);
		var rows = this.rows.filter(function (r) {
			return !self.query || matches(r.name, self.query);
		});
		rows.sort(function (a, b) {
			var x = col.value(a), y = col.value(b), c;
			if (x === null || x === undefined) x = col.text ? '' : -Infinity;
			if (y === null || y === undefined) y = col.text ? '' : -Infinity;
			c = x < y ? -1 : x > y ? 1 : 0;
			if (!c) c = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
			return self.sortDesc ? -c : c;
		});
		var table = el('table', { cls: 'data' });
		var tr = el('tr');
		this.cols.forEach(function (c) {
			var th = el('th', { cls: (c.text ? 'text ' : '') +
				(c.key === self.sortKey ? (self.sortDesc ? 'sorted-desc' : 'sorted-asc') : ''),
				title: c.title || c.label, text: c.label, 'data-key': c.key });
			th.addEventListener('click', function () {
				if (self.sortKey === c.key) self.sortDesc = !self.sortDesc;
				else { self.sortKey = c.key; self.sortDesc = !c.text; }
				self.render();
			});
			tr.appendChild(th);
		});
		table.appendChild(el('thead', {}, [tr]));
		var body = el('tbody');
		rows.slice(0, this.limit).forEach(function (r) {
			var row = el('tr', self.query ? { cls: 'match' } : {});
			self.cols.forEach(function (c) {
				var shown = c.show ? c.show(r) : c.value(r);
				var cls = (c.text ? 'text ' : '') + (c.key === 'name' ? 'name ' : '') +
					(c.cls ? c.cls(r) : '');
				var td = el('td', { cls: cls, 'data-key': c.key });
				if (shown instanceof Node) td.appendChild(shown);
				else td.textContent = shown === null || shown === undefined ? '' : shown;
				if (c.key === 'name') td.title = r.name + (r.file ? ' (' + r.file + (r.line > 0 ? ':' + r.line : '') + ')' : '');
				row.appendChild(td);
			});
			body.appendChild(row);
		});
		table.appendChild(body);
		this.wrap.replaceChildren(table);
		this.more.replaceChildren();
		if (rows.length > this.limit) {
			var b = el('button', { text: 'show all ' + rows.length + ' rows' });
			b.addEventListener('click', function () { self.limit = Infinity; self.render(); });
			this.more.appendChild(el('span', { text: rows.length - this.limit + ' more rows ' }));
			this.more.appendChild(b);
		}
		this.shown = rows.length;
	};
	Table.prototype.search = function (q) {
		this.query = q;
		this.render();
	};

	function matches(name, q) {
		return name.toLowerCase().indexOf(q.toLowerCase()) >= 0;
	}

	function numCol(key, label, digits, title) {
		return { key: key, label: label, title: title,
			value: function (r) { return r[key]; },
			show: function (r) { return digits === undefined ? int(r[key]) : num(r[key], digits); } };
	}
	function diffCol(key, label, digits, title) {
		return { key: key, label: label, title: title,
			value: function (r) { return r[key]; },
			show: function (r) { return digits === undefined ? signed(r[key], 0) : signed(r[key], digits); },
			/* base - second: positive is less time in the second run */
			cls: function (r) { return r[key] > 0 ? 'less' : r[key] < 0 ? 'more' : ''; } };
	}
	function textCol(key, label) {
		return { key: key, label: label, text: true, value: function (r) { return r[key]; } };
	}

	/* The diff model's verdict of a row, as the text marks it. */
	function verdict(r) {
		if (r.significant)
			return { text: 'significant', cls: 'significant' + (r.self_diff > 0 ? ' less' : ''),
				order: 3 };
		if (r.within_noise) return { text: '~ noise', cls: 'noise', order: 1 };
		if (r.self_diff === 0 && r.calls_diff === 0) return { text: 'equal', cls: 'equal', order: 0 };
		return { text: '', cls: '', order: 2 };
	}

	var table = null, summary = el('div', { cls: 'summary' });
	function card(label, value) {
		summary.appendChild(el('div', {}, [el('b', { text: value }), label]));
	}
	/* Library, instrumentation and unknown rows sit in the tables with
	 * their kind, beside the program's functions; a box hides them. */
	function kindBox(parent, all) {
		var n = all.filter(function (f) { return f.kind !== 'function'; }).length;
		if (!n) return;
		var box = el('input', { type: 'checkbox', id: 'hide-kinds' });
		box.addEventListener('change', function () {
			table.rows = all.filter(function (f) { return !box.checked || f.kind === 'function'; });
			table.render();
		});
		parent.appendChild(el('label', { cls: 'controls' }, [box,
			' hide the ' + n + ' rows outside the program\'s functions (libraries, the ' +
			'instrumentation, unknown code)']));
	}
	/* the unit of the values: seconds, or an event's (--metric) */
	var metricDoc = kind === 'profile' ? data.profile : kind === 'diff' ? data.diff : null;
	var unit = metricDoc && metricDoc.metric && metricDoc.metric !== 'time' ? metricDoc.unit : 's';
	var digits = unit === 's' ? 2 : 0;

	if (kind === 'profile') {
		var prof = data.profile;
		var fns = prof.functions.filter(function (f) { return f.kind !== 'cycle'; });
		var s = section('functions', 'Flat profile',
			'The functions of ' + (prof.gmon_files || []).join(', ') +
			(prof.source ? ' (' + prof.source + ')' : '') + '; click a column to sort by it.');
		card(unit === 's' ? 'seconds' : unit, num(prof.total_sec, digits));
		card('functions', String(fns.filter(function (f) { return f.kind === 'function'; }).length));
		s.appendChild(summary);
		kindBox(s, fns);
		table = new Table(s, [
			textCol('name', 'function'),
			textCol('kind', 'kind'),
			numCol('self_pct', '% ' + (unit === 's' ? 'time' : unit), 2),
			numCol('self_sec', 'self ' + unit, digits),
			numCol('children_sec', 'children ' + unit, digits),
			numCol('total_sec', 'total ' + unit, digits, 'self + children'),
			numCol('calls', 'calls'),
			numCol('self_calls', 'recursive calls'),
			numCol('samples', 'samples', 0),
			textCol('file', 'file')
		], fns, 'self_sec', true);
	} else if (kind === 'diff') {
		var d = data.diff;
		var dfns = d.functions.filter(function (f) { return f.kind !== 'cycle'; });
		var nsig = dfns.filter(function (f) { return f.significant; }).length;
		var s2 = section('functions', 'Functions',
			'A is ' + d.base.label + ', B is ' + d.second.label + '. Differences are A \u2212 B ' +
			'(positive, blue: less time in B; negative, red: more). Verdicts are the diff\'s: ' +
			'significant (time beyond noise, or calls changed), ~ noise (within --noise ' +
			d.noise_sigmas + ' standard deviations). Rows in evidence order; click a column to sort.');
		var uw = unit === 's' ? 'seconds' : unit;
		card(uw + ' in A', num(d.base.total_sec, digits));
		card(uw + ' in B', num(d.second.total_sec, digits));
		card('sum of |differences|', num(d.abs_diff_sum_sec, digits));
		card('significant changes', String(nsig));
		s2.appendChild(summary);
		kindBox(s2, dfns);
		dfns.forEach(function (f) { f.verdict_order = verdict(f).order; });
		table = new Table(s2, [
			textCol('name', 'function'),
			textCol('kind', 'kind'),
			{ key: 'verdict_order', label: 'verdict', title: 'the diff\'s verdict',
				value: function (r) { return r.verdict_order * 1e12 + (r.evidence_sec || 0); },
				show: function (r) { var v = verdict(r); return el('span', { cls: 'verdict ' + v.cls, text: v.text }); } },
			diffCol('self_diff', 'self diff ' + unit, digits, 'A \u2212 B self ' + uw),
			numCol('self_base', 'self A', digits),
			numCol('self_second', 'self B', digits),
			numCol('impact_pct', 'impact %', 2, 'self diff as % of the sum of |differences|'),
			numCol('self_ratio', 'B/A', 2),
			diffCol('total_diff', 'total diff ' + unit, digits),
			numCol('total_base', 'total A', digits),
			numCol('total_second', 'total B', digits),
			diffCol('calls_diff', 'calls diff'),
			numCol('calls_base', 'calls A'),
			numCol('calls_second', 'calls B'),
			numCol('noise_sec', 'noise ' + unit, digits, 'the noise threshold applied'),
			numCol('evidence_sec', 'evidence ' + unit, digits),
			textCol('matched_by', 'matched by'),
			textCol('file', 'file')
		], dfns, 'verdict_order', true);
	} else if (kind === 'rank-stats') {
		var rs = data.rankstats;
		var nimb = rs.functions.filter(function (f) { return f.imbalanced; }).length;
		var s3 = section('functions', 'Functions across ranks',
			'Self seconds per rank: min, mean, max and where; imbalance = max/mean; cost = ranks \u00d7 max. ' +
			'"imbalanced": the slowest rank\'s excess over the mean is beyond its sampling noise.');
		card('ranks', String(rs.rank_count));
		card('self seconds, all ranks', num(rs.self_total_sec, 2));
		card('functions', String(rs.functions.length));
		card('imbalanced', String(nimb));
		s3.appendChild(summary);
		table = new Table(s3, [
			textCol('name', 'function'),
			{ key: 'imbalanced', label: 'verdict', value: function (r) { return r.imbalanced ? 1 : 0; },
				show: function (r) { return r.imbalanced ? el('span', { cls: 'verdict imbalanced', text: 'imbalanced' }) : ''; } },
			numCol('cost_sec', 'cost s', 2),
			numCol('imbalance', 'max/mean', 2),
			numCol('self_total', 'self total', 2),
			numCol('self_min', 'min', 3),
			numCol('self_mean', 'mean', 3),
			numCol('self_max', 'max', 3),
			numCol('self_sd', 'sd', 3),
			textCol('self_min_rank', 'min@'),
			textCol('self_max_rank', 'max@'),
			numCol('calls_total', 'calls'),
			numCol('calls_min', 'calls min'),
			numCol('calls_max', 'calls max'),
			numCol('ran_on', 'ran on'),
			textCol('file', 'file')
		], rs.functions.slice(), 'cost_sec', true);
		var s4 = section('ranks', 'Ranks', 'outlier place 1 = the rank most unlike the others.');
		var rankRows = rs.ranks.map(function (r) { var c = Object.assign({}, r); c.name = String(r.rank); return c; });
		new Table(s4, [
			textCol('name', 'rank'),
			numCol('self_sec', 'self s', 2),
			numCol('calls', 'calls'),
			numCol('time_distance', 'time distance', 3),
			numCol('calls_distance', 'calls distance', 3),
			numCol('functions_ran', 'functions ran'),
			numCol('functions_unique', 'unique'),
			numCol('functions_calls_differ', 'calls off median'),
			numCol('outlier_place', 'outlier place'),
			textCol('gmon_file', 'gmon file')
		], rankRows, 'self_sec', true);
	}

	mark('table');

	/* ------------------------------------------------------------------ */
	/* The icicle graph of the call paths                                  */

	/* A tree of names: frames that differ only in call sites are one node
	 * (as folded stacks merge them); folded recursion counts its calls on
	 * the frame it was folded into.  v[s] = [self samples, calls] of side s. */
	function Frame(name, parent, nsides) {
		this.name = name;
		this.parent = parent;
		this.kids = [];
		this.index = null;      /* name -> kid, made with the second kid */
		this.self = nsides === 1 ? [0] : [0, 0];
		this.calls = nsides === 1 ? [0] : [0, 0];
		this.depth = parent ? parent.depth + 1 : 0;
		this._path = null;
	}
	/* "main;b;c", as the folded stacks and the path verdicts name it;
	 * made when asked (150,000 frames of Lua need few of them) */
	Object.defineProperty(Frame.prototype, 'path', { get: function () {
		if (this._path === null)
			this._path = this.parent && this.parent.parent ? this.parent.path + ';' + this.name
								    : this.name;
		return this._path;
	} });
	Frame.prototype.child = function (name, nsides) {
		var k;
		if (this.kids.length === 1 && !this.index && this.kids[0].name === name)
			return this.kids[0];
		if (this.kids.length >= 1 && !this.index) {
			/* a Map: names such as "constructor" are functions too */
			this.index = new Map();
			this.index.set(this.kids[0].name, 0);
		}
		k = this.index ? this.index.get(name) : undefined;
		if (k === undefined) {
			k = this.kids.length;
			if (this.index) this.index.set(name, k);
			this.kids.push(new Frame(name, this, nsides));
		}
		return this.kids[k];
	};

	/* doc: "egprof-callpath-columns", frame i of --callpath --format
	 * json's records as the i-th entry of each column */
	function addFrames(root, doc, side, nsides) {
		var at = new Array(doc.parent.length);
		for (var i = 0; i < doc.parent.length; i++) {
			var up = doc.parent[i] < 0 ? root : at[doc.parent[i]];
			if (doc.folded[i]) {
				/* its calls are recursive calls of the parent's function */
				if (doc.recursive_calls) up.calls[side] += doc.recursive_calls[i];
				at[i] = up;
				continue;
			}
			var n = up.child(doc.names[doc['function'][i]], nsides);
			n.self[side] += doc.self_samples[i];
			/* sampled paths (no -pg) have no calls: null */
			if (doc.calls) n.calls[side] += doc.calls[i];
			/* a sampled frame outside the program's calls (a library's):
			 * its calls were never counted */
			if (doc.leaf && doc.leaf[i]) n.uncounted = true;
			at[i] = n;
		}
	}

	/* inclusive values per side, for both metrics */
	function totals(n, nsides) {
		n.inclSelf = n.self.slice();
		n.inclCalls = n.calls.slice();
		n.kids.forEach(function (k) {
			totals(k, nsides);
			for (var s = 0; s < nsides; s++) {
				n.inclSelf[s] += k.inclSelf[s];
				n.inclCalls[s] += k.inclCalls[s];
			}
		});
	}

	function Flame(parent, root, nsides, hz, timed, pathVerdict, counted) {
		var self = this;
		this.root = root;
		this.counted = counted;
		this.nsides = nsides;
		this.hz = hz;
		this.metric = timed ? 'time' : 'calls';
		this.width = 'both';
		this.pathVerdict = pathVerdict;
		this.query = '';
		this.focus = root;
		var controls = el('div', { cls: 'controls' });
		var metric = el('select', { id: 'flame-metric' }, [
			el('option', { value: 'time', text: 'width: time' }),
			el('option', { value: 'calls', text: 'width: calls' })]);
		metric.value = this.metric;
		if (!timed || !counted) metric.disabled = true;
		metric.addEventListener('change', function () { self.metric = metric.value; self.draw(); });
		controls.appendChild(metric);
		if (nsides === 2) {
			var width = el('select', { id: 'flame-sides' }, [
				el('option', { value: 'both', text: 'A + B' }),
				el('option', { value: 'a', text: 'A (baseline)' }),
				el('option', { value: 'b', text: 'B (second)' })]);
			width.addEventListener('change', function () { self.width = width.value; self.draw(); });
			controls.appendChild(width);
		}
		var reset = el('button', { text: 'reset zoom' });
		reset.addEventListener('click', function () { self.zoom(self.root); });
		controls.appendChild(reset);
		parent.appendChild(controls);
		this.crumbs = el('div', { id: 'crumbs' });
		parent.appendChild(this.crumbs);
		this.box = el('div', { id: 'flame' });
		parent.appendChild(this.box);
		if (nsides === 2)
			parent.appendChild(el('div', { cls: 'legend' }, [
				el('span', {}, [el('i', { style: 'background:#d04040' }), 'more time in B']),
				el('span', {}, [el('i', { style: 'background:#4080d0' }), 'less time in B']),
				el('span', {}, [el('i', { style: 'background:#cfcfcf' }), 'within noise']),
				el('span', {}, [el('i', { style: 'background:#e6e1d3' }), 'equal'])]));
		this.box.addEventListener('click', function (ev) {
			var t = ev.target.closest('.fn');
			if (t && t._node) self.zoom(t._node === self.focus && t._node.parent ? t._node.parent : t._node);
		});
		this.box.addEventListener('mousemove', function (ev) {
			var t = ev.target.closest('.fn');
			if (!t || !t._node) { tip.style.display = 'none'; return; }
			tip.textContent = self.describe(t._node);
			tip.style.display = 'block';
			tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - 420) + 'px';
			tip.style.top = (ev.clientY + 14) + 'px';
		});
		this.box.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
		window.addEventListener('resize', function () { self.draw(); });
		this.draw();
	}
	Flame.prototype.value = function (n) {
		var v = this.metric === 'time' ? n.inclSelf : n.inclCalls;
		if (this.nsides === 1) return v[0];
		return this.width === 'a' ? v[0] : this.width === 'b' ? v[1] : v[0] + v[1];
	};
	/* samples in the unit, each side at its own documents' rate */
	Flame.prototype.seconds = function (samples, s) {
		return this.hz[s] > 0 ? samples / this.hz[s] : 0;
	};
	Flame.prototype.amount = function (samples, s) {
		return this.seconds(samples, s).toFixed(digits) + ' ' + unit;
	};
	/* red/blue by the change of the path's self time (or calls), grey when
	 * the verdict is noise; a single profile's colours are warm, by name */
	Flame.prototype.colour = function (n) {
		if (this.nsides === 1) {
			var h = 0;
			for (var i = 0; i < n.name.length; i++) h = (h * 31 + n.name.charCodeAt(i)) >>> 0;
			return 'hsl(' + (10 + h % 40) + ',' + (65 + h % 20) + '%,' + (62 + (h >> 8) % 14) + '%)';
		}
		var change, scale;
		if (this.metric === 'time') {
			change = this.seconds(n.self[1], 1) - this.seconds(n.self[0], 0);
			scale = this.maxTimeChange;
			if (change === 0) return '#e6e1d3';
			if (this.pathVerdict.get(n.path) === true) return '#cfcfcf';
		} else {
			change = n.calls[1] - n.calls[0];
			scale = this.maxCallsChange;
			if (change === 0) return '#e6e1d3';
		}
		var t = Math.min(1, Math.abs(change) / (scale || 1));
		var light = 88 - 38 * Math.sqrt(t);
		return change > 0 ? 'hsl(0,65%,' + light + '%)' : 'hsl(215,65%,' + light + '%)';
	};
	Flame.prototype.describe = function (n) {
		var self = this, lines = [n.path === 'all' ? 'all call paths' : n.path.split(';').join(' \u2192 ')];
		var total = this.value(this.root) || 1;
		lines.push((this.metric === 'time' ? 'width ' : 'calls in frame and below: ') +
			(100 * this.value(n) / total).toFixed(2) + '% of all');
		for (var s = 0; s < this.nsides; s++) {
			var side = this.nsides === 2 ? (s ? 'B: ' : 'A: ') : '';
			lines.push(side + 'self ' + self.amount(n.self[s], s) + ', total ' +
				self.amount(n.inclSelf[s], s) +
				(self.counted ? ', calls ' + (n.uncounted ? '-' : n.calls[s]) : ''));
		}
		if (this.nsides === 2) {
			var ch = self.seconds(n.self[1], 1) - self.seconds(n.self[0], 0);
			var v = this.pathVerdict.get(n.path);
			lines.push('self change B \u2212 A: ' + (ch > 0 ? '+' : '') + ch.toFixed(digits) + ' ' + unit +
				(ch === 0 ? '' : v === true ? ' (~ within noise)' : v === false ? ' (beyond noise)' : '') +
				(self.counted ? ', calls ' + (n.calls[1] - n.calls[0] >= 0 ? '+' : '') +
				 (n.calls[1] - n.calls[0]) : ''));
		}
		return lines.join('\n');
	};
	Flame.prototype.zoom = function (n) {
		this.focus = n;
		this.draw();
	};
	Flame.prototype.draw = function () {
		var self = this, W = this.box.clientWidth || 1000, H = 18, frag = document.createDocumentFragment();
		var focus = this.focus, fv = this.value(focus), maxDepth = 0, drawn = 0;
		if (this.nsides === 2 && this.maxTimeChange === undefined) {
			this.maxTimeChange = 0;
			this.maxCallsChange = 0;
			(function walk(n) {
				var t = Math.abs(self.seconds(n.self[1], 1) - self.seconds(n.self[0], 0));
				if (self.pathVerdict.get(n.path) !== true && t > self.maxTimeChange) self.maxTimeChange = t;
				self.maxCallsChange = Math.max(self.maxCallsChange, Math.abs(n.calls[1] - n.calls[0]));
				n.kids.forEach(walk);
			})(this.root);
		}
		this.matched = 0;
		function box(n, x, w) {
			var d = el('div', { cls: 'fn', 'data-name': n.name });
			d._node = n;
			d.style.left = x + 'px';
			d.style.width = Math.max(w, 1) + 'px';
			d.style.top = (n.depth * H) + 'px';
			d.style.background = self.colour(n);
			if (w > 28) d.textContent = n.name;
			if (self.query && matches(n.name, self.query)) {
				d.className += ' match';
			}
			frag.appendChild(d);
			drawn++;
			if (n.depth > maxDepth) maxDepth = n.depth;
		}
		/* the focus's ancestors span the width */
		for (var a = focus; a; a = a.parent) box(a, 0, W);
		(function place(n, x, w) {
			var at = x, scale = fv > 0 ? w / self.value(n) : 0;
			n.kids.slice().sort(function (p, q) { return p.name < q.name ? -1 : p.name > q.name ? 1 : 0; })
				.forEach(function (k) {
					var kw = self.value(k) * (fv > 0 ? W / fv : 0);
					if (kw >= 0.5) {
						box(k, at, kw);
						place(k, at, kw);
					}
					at += kw;
				});
			return scale;
		})(focus, 0, W);
		/* the matched share of the time: outermost matching frames only */
		if (this.query) {
			(function m(n) {
				if (n.parent && matches(n.name, self.query)) { self.matched += self.value(n); return; }
				n.kids.forEach(m);
			})(this.root);
		}
		this.box.style.height = ((maxDepth + 1) * H + 2) + 'px';
		this.box.replaceChildren(frag);
		this.drawn = drawn;
		this.crumbs.replaceChildren();
		var chain = [];
		for (var c = focus; c; c = c.parent) chain.unshift(c);
		chain.forEach(function (c, i) {
			if (i) self.crumbs.appendChild(document.createTextNode(' \u2192 '));
			var a = el('a', { text: c.name });
			a.addEventListener('click', function () { self.zoom(c); });
			self.crumbs.appendChild(a);
		});
	};
	Flame.prototype.search = function (q) {
		this.query = q;
		this.draw();
		var total = this.value(this.root) || 1;
		return q ? (100 * this.matched / total).toFixed(1) + '% of the ' +
			(this.metric === 'time' ? 'time' : 'calls') + ' in matching frames' : '';
	};
	Flame.prototype.zoomToName = function (q) {
		var found = null;
		(function f(n) {
			if (found) return;
			if (n.parent && matches(n.name, q)) { found = n; return; }
			n.kids.forEach(f);
		})(this.root);
		if (found) this.zoom(found);
		return found;
	};

	var flame = null;
	var cpDocs = kind === 'diff' ? (data.callpath_base && data.callpath_second ?
		[data.callpath_base, data.callpath_second] : null) : (data.callpath ? [data.callpath] : null);
	if (cpDocs) {
		var nsides = cpDocs.length;
		var root = new Frame('all', null, nsides);
		cpDocs.forEach(function (doc, s) { addFrames(root, doc, s, nsides); });
		mark('paths');
		totals(root, nsides);
		/* each paths document's own rate (the samples' own), never another
		 * document's */
		var hz = cpDocs.map(function (doc, s) {
			return doc.hz > 0 ? doc.hz : kind === 'diff' ? (s ? data.diff.second.hz : data.diff.base.hz)
								   : data.profile.hz;
		});
		var timed = root.inclSelf.some(function (v) { return v > 0; });
		/* sampled paths (a build without -pg) counted no calls */
		var counted = cpDocs.every(function (d) { return d.calls_measured !== false; });
		/* each changed path's verdict, as the text's time table marks it */
		var pathVerdict = new Map();
		if (data.pathdiff)
			data.pathdiff.paths.forEach(function (p) { pathVerdict.set(p.stack, p.within_noise); });
		var fs = section('callpaths', 'Call paths',
			(kind === 'diff' ?
				'Icicle graph of both runs\' call paths (matched by function names). Colour: the change of a ' +
				'path\'s self time, red = more time in B, blue = less, grey = within the sampling noise ' +
				'(the text\'s ~), beige = equal.'
				: 'Icicle graph of the calling contexts: width = time (or calls) in a frame and below it.') +
			' Click a frame to zoom, the top bar to zoom out.');
		flame = new Flame(fs, root, nsides, hz, timed, pathVerdict, counted);
	} else if (kind !== 'rank-stats') {
		section('callpaths', 'Call paths', 'No call paths: run the program with libcallpath ' +
			'(LD_PRELOAD=libcallpath.so, or link with -lcallpath) to record them beside gmon.out' +
			(kind === 'diff' ? ', for both runs.' : '.'));
	}

	mark('icicle');

	/* ------------------------------------------------------------------ */
	/* Pictures: the call graph and the heat map                           */

	var graphSvg = null, heatSvg = null;
	if (kind !== 'rank-stats') {
		var gs = section('callgraph', 'Call graph',
			kind === 'diff' ? 'Drawn by graphviz, pruned by time as --svg draws it: blue less time in the ' +
				'second run, red more, grey unchanged or within noise; dashed: first run only, dotted: second only.'
				: 'Drawn by graphviz, pruned by time as --svg draws it (--node-thres, --edge-thres).');
		var g = $('egprof-graph');
		if (g) {
			var pic = el('div', { cls: 'picture fit' });
			pic.appendChild(document.importNode(g.content, true));
			var fit = el('button', { text: 'actual size' });
			fit.addEventListener('click', function () {
				fit.textContent = pic.classList.toggle('fit') ? 'actual size' : 'fit to width';
			});
			gs.appendChild(el('div', { cls: 'controls' }, [fit]));
			gs.appendChild(pic);
			graphSvg = pic.querySelector('svg');
		} else {
			gs.appendChild(el('p', { cls: 'note', text: templateText('egprof-graph-note') }));
		}
	}
	var h = $('egprof-heatmap');
	if (h) {
		var hs = section('heatmap', 'Heat map',
			'Top functions \u00d7 ranks: a cell is the function\'s self time on that rank relative to its ' +
			'mean (blue below, white at, red above); the slowest rank is boxed. Hover a cell for its numbers.');
		var hp = el('div', { cls: 'picture' });
		hp.appendChild(document.importNode(h.content, true));
		hs.appendChild(hp);
		heatSvg = hp.querySelector('svg');
	}

	mark('pictures');

	/* graphviz names a node by its title text; ours by data-function */
	function markSvg(svg, q, sel, nameOf) {
		if (!svg) return 0;
		var n = 0;
		svg.querySelectorAll(sel).forEach(function (g) {
			var on = !!q && matches(nameOf(g), q);
			g.classList.toggle('match', on);
			n += on;
		});
		return n;
	}
	function graphName(g) {
		var t = g.querySelector('text');
		return t ? t.textContent : '';
	}

	/* ------------------------------------------------------------------ */
	/* Search                                                              */

	var search = $('search');
	function runSearch() {
		var q = search.value.trim(), info = [];
		if (table) {
			table.search(q);
			if (q) info.push(table.shown + ' function' + (table.shown === 1 ? '' : 's'));
		}
		if (flame && q) info.push(flame.search(q));
		else if (flame) flame.search('');
		var ng = markSvg(graphSvg, q, 'g.node', graphName);
		if (q && graphSvg) info.push(ng + ' in the call graph');
		var nh = markSvg(heatSvg, q, 'g.row', function (g) { return g.getAttribute('data-function') || ''; });
		if (q && heatSvg) info.push(nh + ' in the heat map');
		$('search-info').textContent = info.join(', ');
	}
	search.addEventListener('input', runSearch);
	search.addEventListener('keydown', function (ev) {
		if (ev.key === 'Enter' && flame && search.value.trim()) {
			if (flame.zoomToName(search.value.trim()))
				$('callpaths').scrollIntoView();
		} else if (ev.key === 'Escape') {
			search.value = '';
			runSearch();
			search.blur();
		}
	});
	document.addEventListener('keydown', function (ev) {
		if (ev.key === '/' && document.activeElement !== search) {
			ev.preventDefault();
			search.focus();
			search.select();
		}
	});
	header.querySelector('.bar').appendChild(el('span', { cls: 'note' },
		[el('kbd', { text: '/' }), ' search, ', el('kbd', { text: 'Enter' }), ' zoom to it, ',
		 el('kbd', { text: 'Esc' }), ' clear']));

	/* ------------------------------------------------------------------ */

	mark('search');
	window.egprof = {
		data: data, table: table, flame: flame, timing: timing,
		search: function (q) { search.value = q; runSearch(); return $('search-info').textContent; }
	};
	var ms = performance.now() - t0;
	document.documentElement.setAttribute('data-egprof-render-ms', ms.toFixed(1));
	document.documentElement.setAttribute('data-egprof-ready', 'true');
})();
