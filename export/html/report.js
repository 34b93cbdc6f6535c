/*
 * egprof's HTML report (export/html.h): draws the page from the JSON in
 * #egprof-data, the documents --format json writes.  Embedded at build
 * time; it fetches nothing (the page's Content-Security-Policy forbids it).
 *
 * Sections: a sortable table of the functions (every column; the diff's
 * verdicts as the diff model gives them: `significant`, `within_noise`;
 * rank statistics' `imbalanced`), an icicle graph of the call paths (click
 * a frame to zoom; in a diff each path's colour follows its verdict from
 * the egprof-pathdiff document) and its bottom-up form (a root per
 * function where samples fell, its callers below), the callers and callees
 * of the selected function (the call graph of the page's source), the
 * call graph graphviz drew, the rank heat map.  '/' focuses the search by
 * function name; Enter selects the first match and zooms the icicle graph
 * to it; Esc clears.  Boxes hide library and instrumentation frames (their
 * time to their callers).  The URL's fragment names the view and the
 * function (#view=butterfly&fn=NAME): deep links, back and forward.
 *
 * One block per view ("View: ..." banners) and one per shared state
 * (hiding, the call graph, deep links): doc/dev/html-views.md.
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
			el('span', { id: 'hide-controls' }),
			el('nav', { id: 'nav' })
		])
	]);
	document.body.appendChild(header);
	var main = el('main');
	document.body.appendChild(main);
	var tip = el('div', { id: 'tip' });
	document.body.appendChild(tip);

	/* A view's section; the navigation links to it by a deep link
	 * (#view=ID, below), which keeps the selected function. */
	function section(id, title, note) {
		var s = el('section', { id: id }, [el('h2', { text: title })]);
		if (note) s.appendChild(el('p', { cls: 'note', text: note }));
		main.appendChild(s);
		var a = el('a', { href: '#view=' + id, text: title, 'data-view': id });
		a.addEventListener('click', function (ev) {
			ev.preventDefault();
			navigate({ view: id });
		});
		$('nav').appendChild(a);
		return s;
	}

	/* ------------------------------------------------------------------ */
	/* View: the table of functions                                        */

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
		this.onName = null;	/* a click on a name: its function */
		var self0 = this;
		this.wrap.addEventListener('click', function (ev) {
			var td = ev.target.closest('td.name');
			if (td && self0.onName) self0.onName(td.textContent);
		});
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

	var table = null, allRows = null, summary = el('div', { cls: 'summary' });
	function card(label, value) {
		summary.appendChild(el('div', {}, [el('b', { text: value }), label]));
	}
	/* Library, instrumentation and unknown rows sit in the tables with
	 * their kind, beside the program's functions; a box hides them. */
	function kindBox(parent, all) {
		var n = all.filter(function (f) { return f.kind !== 'function'; }).length;
		if (!n) return;
		var box = el('input', { type: 'checkbox', id: 'hide-kinds' });
		/* both of the header's boxes at once (Hiding, below) */
		box.addEventListener('change', function () {
			navigate({ hide: box.checked ? 'library,instrumentation' : '' });
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
		allRows = fns;
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
		allRows = dfns;
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
	/* View: the call paths' icicle graph (its tree and drawing)           */

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

	/* opts.ids: the element ids of its box, crumbs and selectors;
	 * opts.inverted: a bottom-up tree (a root is where the time was spent,
	 * its children its callers); opts.onClick(node) after a zoom. */
	function Flame(parent, root, nsides, hz, timed, pathVerdict, counted, opts) {
		var self = this, ids = opts.ids;
		this.inverted = !!opts.inverted;
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
		var metric = el('select', { id: ids.metric }, [
			el('option', { value: 'time', text: 'width: time' }),
			el('option', { value: 'calls', text: 'width: calls' })]);
		metric.value = this.metric;
		if (!timed || !counted || this.inverted) metric.disabled = true;
		metric.addEventListener('change', function () { self.metric = metric.value; self.draw(); });
		controls.appendChild(metric);
		if (nsides === 2) {
			var width = el('select', { id: ids.sides }, [
				el('option', { value: 'both', text: 'A + B' }),
				el('option', { value: 'a', text: 'A (baseline)' }),
				el('option', { value: 'b', text: 'B (second)' })]);
			width.addEventListener('change', function () { self.width = width.value; self.draw(); });
			controls.appendChild(width);
		}
		var reset = el('button', { text: 'reset zoom' });
		reset.addEventListener('click', function () { self.zoom(self.root); });
		controls.appendChild(reset);
		(opts.controls || []).forEach(function (c) { controls.appendChild(c); });
		parent.appendChild(controls);
		this.crumbs = el('div', { id: ids.crumbs, cls: 'crumbs' });
		parent.appendChild(this.crumbs);
		this.box = el('div', { id: ids.box, cls: 'flame' });
		parent.appendChild(this.box);
		if (nsides === 2 && this.inverted)
			parent.appendChild(el('div', { cls: 'legend' }, [
				el('span', {}, [el('i', { style: 'background:#d04040' }), 'more time in B below this frame']),
				el('span', {}, [el('i', { style: 'background:#4080d0' }), 'less time in B']),
				el('span', {}, [el('i', { style: 'background:#e6e1d3' }), 'equal'])]));
		else if (nsides === 2)
			parent.appendChild(el('div', { cls: 'legend' }, [
				el('span', {}, [el('i', { style: 'background:#d04040' }), 'more time in B']),
				el('span', {}, [el('i', { style: 'background:#4080d0' }), 'less time in B']),
				el('span', {}, [el('i', { style: 'background:#cfcfcf' }), 'within noise']),
				el('span', {}, [el('i', { style: 'background:#e6e1d3' }), 'equal'])]));
		this.box.addEventListener('click', function (ev) {
			var t = ev.target.closest('.fn');
			if (t && t._node) {
				self.zoom(t._node === self.focus && t._node.parent ? t._node.parent : t._node);
				if (opts.onClick) opts.onClick(self.focus);
			}
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
		if (this.nsides === 2 && this.inverted) {
			/* no path verdicts bottom-up: the change of the time below */
			var c = this.seconds(n.inclSelf[1], 1) - this.seconds(n.inclSelf[0], 0);
			if (c === 0) return '#e6e1d3';
			var u = Math.min(1, Math.abs(c) / (this.maxInclChange || 1));
			return c > 0 ? 'hsl(0,65%,' + (88 - 38 * Math.sqrt(u)) + '%)'
				     : 'hsl(215,65%,' + (88 - 38 * Math.sqrt(u)) + '%)';
		}
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
		var self = this, lines = [n.path === 'all' ? 'all call paths' :
			n.path.split(';').join(this.inverted ? ' \u2190 ' : ' \u2192 ')];
		var total = this.value(this.root) || 1;
		lines.push((this.metric === 'time' ? 'width ' : 'calls in frame and below: ') +
			(100 * this.value(n) / total).toFixed(2) + '% of all');
		for (var s = 0; s < this.nsides; s++) {
			var side = this.nsides === 2 ? (s ? 'B: ' : 'A: ') : '';
			lines.push(side + 'self ' + self.amount(n.self[s], s) + ', total ' +
				self.amount(n.inclSelf[s], s) +
				(self.counted ? ', calls ' + (n.uncounted ? '-' : n.calls[s]) : ''));
		}
		if (this.nsides === 2 && !this.inverted) {
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
		if (this.nsides === 2 && this.inverted && this.maxInclChange === undefined) {
			this.maxInclChange = 0;
			this.root.kids.forEach(function (k) {
				self.maxInclChange = Math.max(self.maxInclChange,
					Math.abs(self.seconds(k.inclSelf[1], 1) - self.seconds(k.inclSelf[0], 0)));
			});
		}
		if (this.nsides === 2 && !this.inverted && this.maxTimeChange === undefined) {
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
	/* the first frame (depth first) of the function named q, else of a
	 * function whose name contains q */
	Flame.prototype.zoomToName = function (q) {
		var found = null, exact = null;
		(function f(n) {
			if (exact) return;
			if (n.parent && n.name === q) { exact = n; return; }
			if (!found && n.parent && matches(n.name, q)) found = n;
			n.kids.forEach(f);
		})(this.root);
		if (exact || found) this.zoom(exact || found);
		return exact || found;
	};
	/* a new tree (hidden frames changed): drawn from its root */
	Flame.prototype.setRoot = function (root) {
		this.root = root;
		this.focus = root;
		this.maxTimeChange = this.maxInclChange = undefined;
		this.draw();
	};

	/* ------------------------------------------------------------------ */
	/* Hiding frames: libraries', the instrumentation's, unknown code's     */

	/* each name's kind, as the table gives it ("function", "library",
	 * "instrumentation", "unknown") */
	var kindOf = new Map();
	(kind === 'profile' ? data.profile.functions : kind === 'diff' ? data.diff.functions : [])
		.forEach(function (f) { kindOf.set(f.name, f.kind); });
	var hide = { library: false, instrumentation: false };
	function hiddenKind(k) {
		return (hide.library && k === 'library') ||
			(hide.instrumentation && (k === 'instrumentation' || k === 'unknown'));
	}
	function hiding() { return hide.library || hide.instrumentation; }
	function hideText() {
		return [hide.library ? 'library' : null, hide.instrumentation ? 'instrumentation' : null]
			.filter(function (x) { return x; }).join(',');
	}

	/*
	 * Threads (the paths' "threads" and sparse "thread_values", where the
	 * sidecar kept threads apart): the one shown, an index of "threads",
	 * or null for the whole process.  threadFrames(doc, t) is doc with
	 * thread t's calls and samples in place of the process's, and only
	 * the frames it reached (its values, and their callers).
	 */
	var threadList = kind === 'profile' && data.callpath && data.callpath.threads &&
		data.callpath.thread_values ? data.callpath.threads : null;
	var threadSel = null, threadMemo = null;
	function threadText() { return threadSel === null ? '' : String(threadSel); }
	function threadFrames(doc, t) {
		if (threadMemo && threadMemo.doc === doc && threadMemo.t === t) return threadMemo.out;
		var n = doc.parent.length, tv = doc.thread_values, i, f;
		var calls = new Float64Array(n), own = new Float64Array(n), reached = new Uint8Array(n), at = new Int32Array(n);
		for (i = 0; i < tv.frame.length; i++) {
			if (tv.thread[i] !== t) continue;
			f = tv.frame[i];
			calls[f] = tv.calls ? tv.calls[i] : 0;
			own[f] = tv.samples[i];
			reached[f] = 1;
		}
		/* parents precede their children */
		for (i = n - 1; i >= 0; i--) if (reached[i] && doc.parent[i] >= 0) reached[doc.parent[i]] = 1;
		var out = { names: doc.names, hz: doc.hz, calls_measured: doc.calls_measured,
			parent: [], 'function': [], calls: doc.calls ? [] : null, self_samples: [],
			folded: [], recursive_calls: doc.recursive_calls ? [] : null, leaf: doc.leaf ? [] : null };
		for (i = 0; i < n; i++) {
			if (!reached[i]) continue;
			at[i] = out.parent.length;
			out.parent.push(doc.parent[i] < 0 ? -1 : at[doc.parent[i]]);
			out['function'].push(doc['function'][i]);
			/* a folded frame's calls are recursive calls */
			if (out.calls) out.calls.push(doc.folded[i] ? 0 : calls[i]);
			out.self_samples.push(own[i]);
			out.folded.push(doc.folded[i]);
			if (out.recursive_calls) out.recursive_calls.push(doc.folded[i] ? calls[i] : 0);
			if (out.leaf) out.leaf.push(doc.leaf[i]);
		}
		threadMemo = { doc: doc, t: t, out: out };
		return out;
	}

	/*
	 * doc's frames without the hidden ones, as pprof's hide: a hidden
	 * frame's samples go to its nearest shown caller, and its callees hang
	 * from that caller (main -> qsort -> cmp becomes main -> cmp).  A
	 * top-level frame stays: nothing above it would take its time.  The
	 * same columns as doc ("egprof-callpath-columns"); doc itself when
	 * nothing is hidden.
	 */
	function visibleFrames(doc0) {
		var doc = threadSel !== null && doc0.thread_values ? threadFrames(doc0, threadSel) : doc0;
		if (!hiding()) return doc;
		var n = doc.parent.length, at = new Int32Array(n), gone = new Uint8Array(n);
		var hid = doc.names.map(function (nm) { return hiddenKind(kindOf.get(nm)); });
		var out = { names: doc.names, hz: doc.hz, calls_measured: doc.calls_measured,
			parent: [], 'function': [], calls: doc.calls ? [] : null, self_samples: [],
			folded: [], recursive_calls: doc.recursive_calls ? [] : null, leaf: doc.leaf ? [] : null };
		for (var i = 0; i < n; i++) {
			var p = doc.parent[i];
			if (p >= 0 && (hid[doc['function'][i]] || (doc.folded[i] && gone[p]))) {
				gone[i] = 1;
				at[i] = at[p];
				out.self_samples[at[p]] += doc.self_samples[i];
				continue;
			}
			at[i] = out.parent.length;
			out.parent.push(p < 0 ? -1 : at[p]);
			out['function'].push(doc['function'][i]);
			if (out.calls) out.calls.push(doc.calls[i]);
			out.self_samples.push(doc.self_samples[i]);
			out.folded.push(doc.folded[i]);
			if (out.recursive_calls) out.recursive_calls.push(doc.recursive_calls[i]);
			if (out.leaf) out.leaf.push(doc.leaf[i]);
		}
		return out;
	}

	/* ------------------------------------------------------------------ */
	/* The call graph the views read: functions and arcs                   */

	/*
	 * One call graph for the callers-and-callees view: fns (name -> self,
	 * children, calls, recursive calls per side, seconds), arcs into and
	 * out of each function (calls, self and children along the arc, or
	 * their sum, time, where only that is known).  From the page's own
	 * documents (the numbers of the text's call graph: gprof's, or the
	 * model's when the sidecars measured the time), or computed from the
	 * call paths below when frames are hidden.
	 */
	function CallGraph(nsides) {
		this.nsides = nsides;
		this.fns = new Map();
		this.into = new Map();
		this.out = new Map();
		this.split = true;	/* arcs carry self and children */
	}
	CallGraph.prototype.fn = function (name) {
		var f = this.fns.get(name), z = function () { return this.nsides === 1 ? [0] : [0, 0]; }.bind(this);
		if (!f) {
			f = { name: name, self: z(), children: z(), calls: z(), selfCalls: z() };
			this.fns.set(name, f);
		}
		return f;
	};
	CallGraph.prototype.addArc = function (a) {
		(this.into.get(a.callee) || this.into.set(a.callee, []).get(a.callee)).push(a);
		(this.out.get(a.caller) || this.out.set(a.caller, []).get(a.caller)).push(a);
	};

	function graphOfProfile(p) {
		var g = new CallGraph(1);
		p.functions.forEach(function (f) {
			if (f.kind === 'cycle') return;
			var x = g.fn(f.name);
			x.self = [f.self_sec || 0];
			x.children = [f.children_sec || 0];
			x.calls = [f.calls];
			x.selfCalls = [f.self_calls];
		});
		p.arcs.forEach(function (a) {
			g.addArc({ caller: a.caller, callee: a.callee, calls: [a.calls],
				self: [a.self_sec], children: [a.children_sec], time: [a.time_sec] });
		});
		g.split = p.arcs.every(function (a) { return a.self_sec !== undefined; });
		return g;
	}

	function graphOfDiff(d) {
		var g = new CallGraph(2);
		g.split = false;
		d.functions.forEach(function (f) {
			if (f.kind === 'cycle') return;
			var x = g.fn(f.name);
			x.self = [f.self_base, f.self_second];
			x.children = [f.children_base, f.children_second];
			x.calls = [f.calls_base, f.calls_second];
			x.selfCalls = [f.self_calls_base, f.self_calls_second];
		});
		(d.arcs || []).forEach(function (a) {
			g.addArc({ caller: a.caller, callee: a.callee, calls: [a.calls_base, a.calls_second],
				time: [a.time_base, a.time_second] });
		});
		return g;
	}

	/*
	 * The call graph of call paths, as the model builds a run's functions
	 * and arcs from them (model/measured.c): a function's self time is
	 * its frames' samples, its total the inclusive samples of its
	 * outermost frames (a recursion once); an arc caller -> callee holds
	 * the calls of the callee's frames under the caller and, of its
	 * outermost ones, their samples: the callee's own (self) and its
	 * callees' (children).  Folded recursion and calls of a function by
	 * itself are its recursive calls.  docs: one columns document per side.
	 */
	function graphOfPaths(docs, hz) {
		var nsides = docs.length, g = new CallGraph(nsides), arcs = new Map();
		docs.forEach(function (doc, s) {
			var n = doc.parent.length, fn = doc['function'], par = doc.parent, i, k;
			var first = new Int32Array(n + 2), kids = new Int32Array(n), pos;
			for (i = 0; i < n; i++) first[par[i] + 2]++;
			for (i = 1; i < n + 2; i++) first[i] += first[i - 1];
			pos = first.slice();
			for (i = 0; i < n; i++) kids[pos[par[i] + 1]++] = i;
			/* kids of frame i: kids[first[i + 1] .. first[i + 2]) */
			var incl = new Float64Array(n);
			for (i = 0; i < n; i++) incl[i] = doc.self_samples[i];
			for (i = n - 1; i >= 0; i--) if (par[i] >= 0) incl[par[i]] += incl[i];
			/* depth first: outer[i] when no frame above is of the same
			 * function; own[i] of an outermost frame: its function's
			 * samples in its subtree */
			var active = new Int32Array(doc.names.length).fill(-1);
			var outer = new Uint8Array(n), own = new Float64Array(n), entered = new Uint8Array(n);
			var stack = [], sp;
			for (k = first[1] - 1; k >= first[0]; k--) stack.push(kids[k]);
			while ((sp = stack.length)) {
				i = stack[sp - 1];
				var a = fn[i];
				if (entered[i]) {
					if (outer[i]) active[a] = -1;
					stack.pop();
					continue;
				}
				entered[i] = 1;
				outer[i] = active[a] < 0 ? 1 : 0;
				if (outer[i]) active[a] = i;
				own[active[a]] += doc.self_samples[i];
				for (k = first[i + 2] - 1; k >= first[i + 1]; k--) stack.push(kids[k]);
			}
			var rate = hz[s] > 0 ? hz[s] : 1, calls = doc.calls, rec = doc.recursive_calls;
			for (i = 0; i < n; i++) {
				var c = doc.names[fn[i]], f = g.fn(c);
				f.self[s] += doc.self_samples[i] / rate;
				if (outer[i]) f.children[s] += (incl[i] - doc.self_samples[i]) / rate;
				if (doc.folded[i]) {
					if (rec) f.selfCalls[s] += rec[i];
					continue;
				}
				/* an inner frame's self time is in its outermost
				 * frame's total already */
				if (!outer[i]) f.children[s] -= doc.self_samples[i] / rate;
				if (par[i] < 0) {
					if (calls) f.calls[s] += calls[i];
					continue;
				}
				var pn = doc.names[fn[par[i]]];
				if (pn === c) {
					if (calls) f.selfCalls[s] += calls[i];
					continue;
				}
				if (calls) f.calls[s] += calls[i];
				var key = pn + '\u0000' + c, arc = arcs.get(key);
				if (!arc) {
					var z = function () { return nsides === 1 ? [0] : [0, 0]; };
					arc = { caller: pn, callee: c, calls: z(), self: z(), children: z(), time: z() };
					arcs.set(key, arc);
					g.addArc(arc);
				}
				if (calls) arc.calls[s] += calls[i];
				if (outer[i]) {
					arc.self[s] += own[i] / rate;
					arc.children[s] += (incl[i] - own[i]) / rate;
					arc.time[s] += incl[i] / rate;
				}
			}
			if (!calls) g.fns.forEach(function (f) { f.calls[s] = null; f.selfCalls[s] = null; });
		});
		if (docs.some(function (d) { return !d.calls; }))
			arcs.forEach(function (a) { a.calls = null; });
		/* a library's or the instrumentation's calls were never counted */
		g.fns.forEach(function (f) {
			var k = kindOf.get(f.name);
			if (k && k !== 'function') {
				f.calls = f.calls.map(function () { return null; });
				f.selfCalls = f.selfCalls.map(function () { return null; });
			}
		});
		arcs.forEach(function (a) {
			var k = kindOf.get(a.callee);
			if (k && k !== 'function') a.calls = null;
		});
		return g;
	}

	/* ------------------------------------------------------------------ */
	/* The call paths: the documents, and what their views share           */

	var flame = null, inverted = null;
	var cpDocs = kind === 'diff' ? (data.callpath_base && data.callpath_second ?
		[data.callpath_base, data.callpath_second] : null) : (data.callpath ? [data.callpath] : null);
	var nsides = kind === 'diff' ? 2 : 1;
	/* each paths document's own rate (the samples' own), never another
	 * document's */
	var hz = cpDocs ? cpDocs.map(function (doc, s) {
		return doc.hz > 0 ? doc.hz : kind === 'diff' ? (s ? data.diff.second.hz : data.diff.base.hz)
							   : data.profile.hz;
	}) : [];
	/* the page's numbers are the call paths' (the sidecars measured the
	 * time: the analysis's source, said on the page) */
	var pathsAreSource = !!cpDocs && /call-path samples/.test(source);

	function topDownTree() {
		var root = new Frame('all', null, nsides);
		cpDocs.forEach(function (doc, s) { addFrames(root, visibleFrames(doc), s, nsides); });
		totals(root, nsides);
		return root;
	}

	/* Bottom-up: a root per function where samples fell, its total that
	 * function's self time; below it its callers, outward to the top. */
	function bottomUpTree() {
		var root = new Frame('all', null, nsides);
		cpDocs.forEach(function (doc0, s) {
			var doc = visibleFrames(doc0), fn = doc['function'], par = doc.parent;
			for (var i = 0; i < par.length; i++) {
				var v = doc.self_samples[i];
				if (!v) continue;
				var n = root;
				for (var j = i; j >= 0; j = par[j])
					if (!doc.folded[j]) n = n.child(doc.names[fn[j]], nsides);
				n.self[s] += v;
			}
		});
		totals(root, nsides);
		return root;
	}

	/* the call graph of the page's numbers, with the hidden frames'
	 * time moved to their callers where the call paths are the source */
	var graphCache = null;
	function callGraph() {
		if (graphCache) return graphCache;
		/* a thread's numbers are only in its call paths */
		if ((hiding() && pathsAreSource) || (threadSel !== null && cpDocs))
			graphCache = graphOfPaths(cpDocs.map(visibleFrames), hz);
		else if (kind === 'profile')
			graphCache = graphOfProfile(data.profile);
		else if (kind === 'diff')
			graphCache = graphOfDiff(data.diff);
		return graphCache;
	}

	/* ------------------------------------------------------------------ */
	/* View: callers and callees of the selected function                  */

	var butterfly = null;
	function Butterfly(parent) {
		var self = this;
		this.name = null;
		this.query = '';
		this.title = el('div', { cls: 'bf-title', id: 'bf-title', text: 'Select a function: click its name in the table, ' +
			'a frame of the call paths, or type its name and press Enter.' });
		this.box = el('div', { cls: 'tablewrap', id: 'bf' });
		parent.appendChild(this.title);
		parent.appendChild(this.box);
		this.box.addEventListener('click', function (ev) {
			var td = ev.target.closest('td.name');
			if (td && td.parentNode.dataset.name && td.parentNode.dataset.role !== 'function')
				navigate({ view: 'butterfly', fn: td.parentNode.dataset.name });
		});
	}
	Butterfly.prototype.select = function (name) {
		this.name = name;
		this.draw();
	};
	Butterfly.prototype.draw = function () {
		var self = this, g = callGraph(), name = this.name;
		if (!g || name === null) return;
		var f = g.fns.get(name), two = g.nsides === 2;
		if (!f) {
			this.title.textContent = 'No function ' + name + (hiding() ? ' shown (hidden)' : '') + '.';
			this.box.replaceChildren();
			return;
		}
		this.title.textContent = name;
		var callers = (g.into.get(name) || []).filter(function (a) { return a.caller !== name; });
		var callees = (g.out.get(name) || []).filter(function (a) { return a.callee !== name; });
		function along(a, s) {
			return a.time ? a.time[s] : a.self[s] + a.children[s];
		}
		function order(key) {
			return function (x, y) {
				var u = along(x, 0) + (two ? along(x, 1) : 0), v = along(y, 0) + (two ? along(y, 1) : 0);
				return v - u || (x[key] < y[key] ? -1 : x[key] > y[key] ? 1 : 0);
			};
		}
		callers.sort(order('caller'));
		callees.sort(order('callee'));
		var calledOf = function (s) {
			return f.calls[s] === null || f.calls[s] === undefined ? null : f.calls[s];
		};
		var cols = two ?
			['function', 'time A ' + unit, 'time B ' + unit, 'A \u2212 B', 'calls A', 'calls B', 'calls A \u2212 B'] :
			g.split ? ['function', 'self ' + unit, 'children ' + unit, 'called', '% of total'] :
			['function', 'time ' + unit, 'called', '% of total'];
		var table = el('table', { cls: 'data butterfly' });
		table.appendChild(el('thead', {}, [el('tr', {}, cols.map(function (c, i) {
			return el('th', { cls: i ? '' : 'text', text: c });
		}))]));
		var body = el('tbody');
		function cell(v, d) {
			return el('td', { 'data-v': v === null || v === undefined ? '' : String(v),
				text: v === null || v === undefined ? '-' : d === undefined ? String(v) : num(v, d) });
		}
		function row(role, nm, vals) {
			var tr = el('tr', { cls: 'bf-' + role + (self.query && matches(nm, self.query) ? ' match' : ''),
				'data-role': role, 'data-name': nm });
			tr.appendChild(el('td', { cls: 'text name', text: (role === 'function' ? '' : '\u2003') + nm,
				title: nm }));
			vals.forEach(function (v) { tr.appendChild(v); });
			body.appendChild(tr);
		}
		function group(text) {
			body.appendChild(el('tr', { cls: 'bf-group' }, [el('td', { cls: 'text', colspan: String(cols.length),
				text: text })]));
		}
		var total = f.self[0] + f.children[0];
		function arcRow(role, a, other) {
			if (two)
				row(role, other, [cell(along(a, 0), digits), cell(along(a, 1), digits),
					cell(along(a, 0) - along(a, 1), digits),
					cell(a.calls ? a.calls[0] : null), cell(a.calls ? a.calls[1] : null),
					cell(a.calls && a.calls[0] !== null && a.calls[1] !== null ? a.calls[0] - a.calls[1] : null)]);
			else {
				/* gprof's "called": along the arc / the callee's calls */
				var to = role === 'caller' ? f : g.fns.get(a.callee);
				var c = a.calls && a.calls[0] !== null && a.calls[0] !== undefined ? a.calls[0] : null;
				var of = to && to.calls[0] !== null && to.calls[0] !== undefined ? to.calls[0] : null;
				var called = el('td', { 'data-v': c === null ? '' : String(c), 'data-of': of === null ? '' : String(of),
					text: c === null ? '-' : c + (of === null ? '' : '/' + of) });
				var share = total > 0 && role === 'caller' ? 100 * along(a, 0) / total : null;
				row(role, other, (g.split ? [cell(a.self[0], digits), cell(a.children[0], digits)]
							  : [cell(along(a, 0), digits)])
					.concat([called, cell(share, 1)]));
			}
		}
		group(callers.length ? 'called by (' + callers.length + ')' : 'called by: nothing recorded');
		callers.forEach(function (a) { arcRow('caller', a, a.caller); });
		if (two)
			row('function', name, [cell(f.self[0] + f.children[0], digits), cell(f.self[1] + f.children[1], digits),
				cell(f.self[0] + f.children[0] - f.self[1] - f.children[1], digits),
				cell(calledOf(0)), cell(calledOf(1)),
				cell(calledOf(0) !== null && calledOf(1) !== null ? calledOf(0) - calledOf(1) : null)]);
		else {
			var c0 = calledOf(0), r0 = f.selfCalls[0];
			var called = el('td', { 'data-v': c0 === null ? '' : String(c0), 'data-recursive': r0 ? String(r0) : '',
				text: c0 === null ? '-' : c0 + (r0 ? '+' + r0 : '') });
			row('function', name, (g.split ? [cell(f.self[0], digits), cell(f.children[0], digits)]
						      : [cell(total, digits)]).concat([called, cell(total > 0 ? 100 : null, 1)]));
		}
		group(callees.length ? 'calls (' + callees.length + ')' : 'calls: nothing recorded');
		callees.forEach(function (a) { arcRow('callee', a, a.callee); });
		table.appendChild(body);
		this.box.replaceChildren(table);
	};
	Butterfly.prototype.search = function (q) {
		this.query = q;
		this.draw();
	};

	if (kind === 'profile' || kind === 'diff') {
		var bs = section('butterfly', 'Callers and callees',
			'The selected function\'s callers (above it) and callees (below), each with the time spent ' +
			'along that call and its calls, over all the function\'s calling contexts; a recursion counts ' +
			'once. The numbers are the call graph of the page\'s source' + (source ? ' (' + source + ')' : '') +
			(kind === 'diff' ? ': both runs and A \u2212 B, time along the arc being self + children.' :
			 ': gprof\'s layout, a caller\'s line the self and children time it passes on, "called" ' +
			 'its calls of the function over the function\'s calls (+ recursive calls).') +
			' Click a caller or callee to move to it.');
		butterfly = new Butterfly(bs);
		if (table) table.onName = function (n) { navigate({ view: 'butterfly', fn: n }); };
	}

	/* View: source lines (source.js), when the command embedded them */
	var sourceView = data.lines && window.egprofSourceView ?
		window.egprofSourceView({ section: section, el: el, data: data, navigate: navigate }) : null;

	/* ------------------------------------------------------------------ */
	/* View: the call paths, top-down (icicle) and bottom-up (inverted)    */

	var pathMode = 'top-down', pathBox = null, upBox = null, counted = true, timed = false;
	var pathVerdict = new Map();
	function modeSelect(id, value) {
		var s = el('select', { id: id, 'aria-label': 'direction' }, [
			el('option', { value: 'top-down', text: 'top-down (callers above)' }),
			el('option', { value: 'bottom-up', text: 'bottom-up (where time was spent, callers below)' })]);
		s.value = value;
		s.addEventListener('change', function () {
			navigate({ view: s.value === 'bottom-up' ? 'inverted' : 'callpaths' });
		});
		return s;
	}
	function showPaths(mode) {
		if (!cpDocs || mode === pathMode) return;
		pathMode = mode;
		if (mode === 'bottom-up' && !inverted) {
			var t = performance.now();
			inverted = new Flame(upBox, bottomUpTree(), nsides, hz, timed, pathVerdict, counted, {
				inverted: true, controls: [modeSelect('inverted-mode', 'bottom-up')],
				ids: { box: 'flame-inverted', crumbs: 'crumbs-inverted', metric: 'inverted-metric',
				       sides: 'inverted-sides' },
				onClick: function (n) { if (n.parent) select(n.name); } });
			timing.inverted = Math.round((performance.now() - t) * 10) / 10;
			if (lastQuery) inverted.search(lastQuery);
		}
		pathBox.style.display = mode === 'top-down' ? '' : 'none';
		upBox.style.display = mode === 'bottom-up' ? '' : 'none';
		if (mode === 'bottom-up') inverted.draw();
		else flame.draw();
	}

	if (cpDocs) {
		var root = topDownTree();
		mark('paths');
		timed = root.inclSelf.some(function (v) { return v > 0; });
		/* sampled paths (a build without -pg) counted no calls */
		counted = cpDocs.every(function (d) { return d.calls_measured !== false; });
		/* each changed path's verdict, as the text's time table marks it */
		if (data.pathdiff)
			data.pathdiff.paths.forEach(function (p) { pathVerdict.set(p.stack, p.within_noise); });
		var fs = section('callpaths', 'Call paths',
			(kind === 'diff' ?
				'Icicle graph of both runs\' call paths (matched by function names). Colour: the change of a ' +
				'path\'s self time, red = more time in B, blue = less, grey = within the sampling noise ' +
				'(the text\'s ~), beige = equal.'
				: 'Icicle graph of the calling contexts: width = time (or calls) in a frame and below it.') +
			' Click a frame to zoom (and to show its function\'s callers and callees), the top bar to ' +
			'zoom out. Bottom-up: a root per function where samples fell, its width the function\'s self ' +
			'time, its callers below it.');
		pathBox = el('div', { id: 'topdown' });
		upBox = el('div', { id: 'bottomup', style: 'display:none' });
		fs.appendChild(pathBox);
		fs.appendChild(upBox);
		flame = new Flame(pathBox, root, nsides, hz, timed, pathVerdict, counted, {
			controls: [modeSelect('flame-mode', 'top-down')],
			ids: { box: 'flame', crumbs: 'crumbs', metric: 'flame-metric', sides: 'flame-sides' },
			onClick: function (n) { if (n.parent) select(n.name); } });
		/* the inverted view's place in the navigation */
		var inv = el('a', { href: '#view=inverted', text: 'Bottom-up', 'data-view': 'inverted' });
		inv.addEventListener('click', function (ev) { ev.preventDefault(); navigate({ view: 'inverted' }); });
		$('nav').appendChild(inv);
	} else if (kind !== 'rank-stats') {
		section('callpaths', 'Call paths', 'No call paths: run the program with libcallpath ' +
			'(LD_PRELOAD=libcallpath.so, or link with -lcallpath) to record them beside gmon.out' +
			(kind === 'diff' ? ', for both runs.' : '.'));
	}

	/* a frame clicked selects its function in the callers-and-callees view
	 * (without moving there) */
	function select(name) {
		if (butterfly) butterfly.select(name);
		if (sourceView) sourceView.select(name);
		state.fn = name;
		replaceHash();
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

	var search = $('search'), lastQuery = '';
	function runSearch() {
		var q = search.value.trim(), info = [];
		lastQuery = q;
		if (table) {
			table.search(q);
			if (q) info.push(table.shown + ' function' + (table.shown === 1 ? '' : 's'));
		}
		if (flame && q) info.push(flame.search(q));
		else if (flame) flame.search('');
		if (inverted) inverted.search(q);
		if (butterfly) butterfly.search(q);
		var ng = markSvg(graphSvg, q, 'g.node', graphName);
		if (q && graphSvg) info.push(ng + ' in the call graph');
		var nh = markSvg(heatSvg, q, 'g.row', function (g) { return g.getAttribute('data-function') || ''; });
		if (q && heatSvg) info.push(nh + ' in the heat map');
		$('search-info').textContent = info.join(', ');
	}
	/* the function a search names: its exact name, else the table's first
	 * match */
	function searched(q) {
		if (!q) return null;
		if (kindOf.has(q)) return q;
		var r = table && table.rows.filter(function (x) { return matches(x.name, q); });
		return r && r.length ? r[0].name : null;
	}
	search.addEventListener('input', runSearch);
	search.addEventListener('keydown', function (ev) {
		var q = search.value.trim();
		if (ev.key === 'Enter' && q) {
			var fnName = searched(q);
			if (flame) {
				var f = pathMode === 'bottom-up' ? inverted : flame;
				if (f.zoomToName(fnName || q))
					$('callpaths').scrollIntoView();
			}
			if (fnName && butterfly) select(fnName);
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
	/* Hiding: the header's boxes                                          */

	/* the table's rows without the hidden kinds; where the call paths are
	 * the source, each row's seconds with the hidden callees' time */
	function tableRowsShown() {
		var rows = allRows.filter(function (r) { return !hiddenKind(r.kind); });
		var one = threadSel !== null && cpDocs && kind === 'profile';
		if (!one && (!hiding() || !pathsAreSource || kind !== 'profile')) return rows;
		var g = callGraph(), all = data.profile.total_sec;
		/* one thread: its functions only, with its time and calls */
		if (one) {
			all = 0;
			g.fns.forEach(function (f) { all += f.self[0]; });
			rows = rows.filter(function (r) { return g.fns.has(r.name); });
		}
		return rows.map(function (r) {
			var f = g.fns.get(r.name), c;
			if (!f) return r;
			c = Object.assign({}, r);
			c.self_sec = f.self[0];
			c.children_sec = f.children[0];
			c.total_sec = f.self[0] + f.children[0];
			c.self_pct = all > 0 ? 100 * f.self[0] / all : r.self_pct;
			if (one) {
				c.calls = f.calls[0];
				c.self_calls = f.selfCalls[0];
				c.samples = Math.round(f.self[0] * hz[0]);
			}
			return c;
		});
	}
	var hideBoxes = {}, hideNote = el('span', { id: 'hide-note', cls: 'note' });
	function applyHide() {
		graphCache = null;
		if (flame) flame.setRoot(topDownTree());
		if (inverted) inverted.setRoot(bottomUpTree());
		if (butterfly) butterfly.draw();
		if (table && allRows) {
			table.rows = tableRowsShown();
			table.render();
		}
		if (hideBoxes.library) hideBoxes.library.checked = hide.library;
		if (hideBoxes.instrumentation) hideBoxes.instrumentation.checked = hide.instrumentation;
		if ($('hide-kinds')) $('hide-kinds').checked = hide.library && hide.instrumentation;
		hideNote.textContent = !hiding() ? '' : pathsAreSource && kind === 'profile' ?
			'hidden frames\' time is their callers\' (table, callers and callees, call paths)' :
			pathsAreSource ? 'hidden frames\' time is their callers\' in the callers and callees and the ' +
			'call paths; the table leaves their rows out (its numbers and verdicts are the diff\'s)' :
			'hidden rows are left out; the numbers are ' + (cpDocs ? 'gmon.out\'s (the call paths\': ' +
			'hidden frames\' time is their callers\')' : 'gmon.out\'s');
		if (lastQuery) runSearch();
		if (threadBox) threadBox.value = threadText();
		threadNote.textContent = threadSel === null ? '' : 'one thread\'s calls and time in every view ' +
			'(the table\'s seconds are its call-path samples)';
	}
	if (kind === 'profile' || kind === 'diff') {
		[['library', 'libraries'], ['instrumentation', 'instrumentation, unknown code']].forEach(function (k) {
			var box = el('input', { type: 'checkbox', id: 'hide-' + k[0] });
			box.addEventListener('change', function () {
				hide[k[0]] = box.checked;
				var h = hideText();
				hide[k[0]] = !box.checked;
				navigate({ hide: h });
			});
			hideBoxes[k[0]] = box;
			$('hide-controls').appendChild(el('label', { title: 'hide these frames: their time goes to ' +
				'their callers' }, [box, ' ' + k[1]]));
		});
		$('hide-controls').insertBefore(document.createTextNode('hide: '), $('hide-controls').firstChild);
		$('hide-controls').appendChild(hideNote);
	}
	/* the thread selector, beside the hide boxes */
	var threadBox = null, threadNote = el('span', { id: 'thread-note', cls: 'note' });
	if (threadList) {
		threadBox = el('select', { id: 'thread-select' });
		threadBox.appendChild(el('option', { value: '', text: 'all threads' }));
		threadList.forEach(function (t) {
			var secs = num(t.samples / (hz[0] || 1), 2) + ' s';
			threadBox.appendChild(el('option', { value: String(t.index), text: t.kind === 'other' ?
				'other threads (' + t.threads + ', summed): ' + secs :
				(t.name || 'thread') + ' (tid ' + t.tid + (t.kind === 'main' ? ', main' : '') + '): ' + secs }));
		});
		threadBox.addEventListener('change', function () { navigate({ thread: threadBox.value }); });
		$('hide-controls').appendChild(el('label', { title: 'show one thread\'s calls and time' },
			[' thread: ', threadBox]));
		$('hide-controls').appendChild(threadNote);
	}

	/* ------------------------------------------------------------------ */
	/* Deep links: #view=VIEW&fn=NAME&hide=library,instrumentation         */

	/*
	 * The fragment names the view (a section's id, or "inverted" for the
	 * bottom-up call paths), the selected function and the hidden kinds.
	 * A user's choice is a new history entry (navigate), so back and
	 * forward step through them; a frame clicked replaces the entry.
	 */
	var state = { view: null, fn: null };
	function hashOf(st) {
		var parts = [];
		if (st.view) parts.push('view=' + encodeURIComponent(st.view));
		if (st.fn) parts.push('fn=' + encodeURIComponent(st.fn));
		if (st.hide) parts.push('hide=' + encodeURIComponent(st.hide));
		if (st.thread) parts.push('thread=' + encodeURIComponent(st.thread));
		return '#' + parts.join('&');
	}
	function readHash() {
		var o = {};
		location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
			var i = kv.indexOf('=');
			if (i > 0) o[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
			else if (kv) o.view = decodeURIComponent(kv);	/* "#functions": a section */
		});
		return o;
	}
	function navigate(change) {
		var st = { view: state.view, fn: state.fn, hide: hideText(), thread: threadText() };
		for (var k in change) st[k] = change[k];
		var h = hashOf(st);
		/* applied now (a test or a script reads the page next), then
		 * remembered; the hashchange it makes finds it applied */
		apply(st, true);
		if (h !== location.hash) location.hash = h;
	}
	function replaceHash() {
		history.replaceState(null, '', hashOf({ view: state.view, fn: state.fn, hide: hideText(),
							thread: threadText() }));
	}
	function apply(st, scroll) {
		var h = st.hide || '', lib = /library/.test(h), ins = /instrumentation/.test(h);
		/* thread=INDEX of the paths' threads; anything else: all */
		var th = threadList && /^[0-9]+$/.test(st.thread || '') && +st.thread < threadList.length
			? +st.thread : null;
		if (lib !== hide.library || ins !== hide.instrumentation || th !== threadSel) {
			hide.library = lib;
			hide.instrumentation = ins;
			threadSel = th;
			applyHide();
		}
		state.view = st.view || null;
		state.fn = st.fn || null;
		if (state.fn && butterfly && butterfly.name !== state.fn) butterfly.select(state.fn);
		if (state.fn && sourceView) sourceView.select(state.fn);
		if (cpDocs && state.view === 'inverted') {
			showPaths('bottom-up');
			if (state.fn && (inverted.focus.name !== state.fn || inverted.focus.depth !== 1)) {
				var r = inverted.root.kids.filter(function (k) { return k.name === state.fn; })[0];
				if (r) inverted.zoom(r);
			}
		} else if (cpDocs && state.view === 'callpaths') {
			showPaths('top-down');
			if (state.fn && flame.focus.name !== state.fn) flame.zoomToName(state.fn);
		}
		document.querySelectorAll('#nav a').forEach(function (a) {
			a.classList.toggle('current', a.dataset.view === state.view);
		});
		var sec = $(state.view === 'inverted' ? 'callpaths' : state.view);
		if (sec && scroll) sec.scrollIntoView();
	}
	window.addEventListener('hashchange', function () { apply(readHash(), true); });
	if (location.hash.length > 1) apply(readHash(), true);

	/* ------------------------------------------------------------------ */

	mark('search');
	window.egprof = {
		data: data, table: table, flame: flame, timing: timing,
		search: function (q) { search.value = q; runSearch(); return $('search-info').textContent; },
		/* for tests: the views of this page as objects */
		inverted: function () { return inverted; },
		butterfly: butterfly,
		callGraph: callGraph,
		pathGraph: function () { return cpDocs ? graphOfPaths(cpDocs.map(visibleFrames), hz) : null; },
		navigate: navigate,
		state: function () { return { view: state.view, fn: state.fn, hide: hideText(), mode: pathMode,
					      thread: threadSel }; }
	};
	var ms = performance.now() - t0;
	document.documentElement.setAttribute('data-egprof-render-ms', ms.toFixed(1));
	document.documentElement.setAttribute('data-egprof-ready', 'true');
})();
