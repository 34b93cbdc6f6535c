/*
 * egprof's HTML report: the source view (export/html_source.h).  Embedded
 * before report.js, which calls window.egprofSourceView(api) once it has
 * its sections and calls view.select(name) whenever a function is
 * selected (a deep link #view=source&fn=NAME, a search, a click).
 *
 * Data: data.lines (the rows: "egprof-lines" of a profile, the diff's
 * "egprof-lines-diff" with both runs, change, z and verdict),
 * data.lines_notes (what -l says once: time left out, libraries without
 * line information, builds that differ) and data.sources (the text of
 * the sampled lines' files, read by the command and bounded: a function's
 * sampled span and a few lines around it, up to a cap on the page's
 * total).  Nothing else is read.
 *
 * The view shows the selected function's source (the file holding most of
 * its time) with each line's time (a bar and seconds; a diff: A, B, the
 * change and the verdict of --diff -l), the hottest line marked, and all
 * of the function's rows (other files: inlined code) in a table below.
 * For tests: window.egprofSource is the view.
 */
window.egprofSourceView = function (api) {
	'use strict';
	var el = api.el, data = api.data, diff = data.lines.schema === 'egprof-lines-diff';
	var rows = data.lines.lines || [], sources = data.sources || { files: [] };
	var byFile = new Map(), byFn = new Map();

	sources.files.forEach(function (f) { byFile.set(f.file, f); });
	rows.forEach(function (r) {
		if (!byFn.has(r['function'])) byFn.set(r['function'], []);
		byFn.get(r['function']).push(r);
	});
	/* a row's time in seconds: its weight in the choices below */
	function weight(r) {
		return diff ? Math.max(r.baseline_seconds || 0, r.second_seconds || 0) : r.seconds || 0;
	}
	function fnWeight(name) {
		return byFn.get(name).reduce(function (s, r) {
			return s + (diff ? Math.abs(r.change || 0) + weight(r) : weight(r));
		}, 0);
	}
	var names = Array.from(byFn.keys()).sort(function (a, b) {
		return fnWeight(b) - fnWeight(a) || (a < b ? -1 : a > b ? 1 : 0);
	});
	/* a diff opens on the function of its first row (the largest change
	 * beyond the noise), a profile on the one with the most time */
	var first = diff && rows.length ? rows[0]['function'] : names[0] || null;

	var s = api.section('source', 'Source',
		'The selected function\'s source lines with their self time' +
		(diff ? ' in both runs (A = ' + data.lines.baseline + ', B = ' + data.lines.second +
		 '), the change A \u2212 B and the verdict of --diff -l (~ within the noise)' : '') +
		', the hottest line marked \u25B6; below, every line of the function, inlined code included. ' +
		'Source: ' + data.lines.source + '. The text is what the command read when it wrote the page: ' +
		'each sampled function\'s lines and ' + (sources.context || 0) + ' lines around them.');
	var pick = el('select', { id: 'src-fn', 'aria-label': 'function' });
	names.forEach(function (n) { pick.appendChild(el('option', { value: n, text: n })); });
	pick.addEventListener('change', function () { api.navigate({ view: 'source', fn: pick.value }); });
	s.appendChild(el('div', { cls: 'controls' }, [el('label', {}, ['function ', pick])]));
	var notes = (data.lines_notes || []).slice();
	if (sources.truncated)
		notes.push('The page embeds at most ' + sources.cap_bytes + ' bytes of source text, and reached ' +
			'it: files with less time than those before show their lines\' times alone.');
	notes.forEach(function (t) { s.appendChild(el('p', { cls: 'note src-note', text: t })); });
	var title = el('div', { id: 'src-title', cls: 'src-title' });
	var box = el('div', { id: 'src-body' });
	s.appendChild(title);
	s.appendChild(box);

	function secs(v) { return v === null || v === undefined ? '' : Number(v).toFixed(3); }
	function signed(v) {
		if (v === null || v === undefined) return '';
		var t = Number(v).toFixed(3);
		return v > 0 ? '+' + t : t;
	}
	function baseName(f) { var i = f.lastIndexOf('/'); return i < 0 ? f : f.slice(i + 1); }

	/* the file holding most of the function's time, its own code first
	 * (as -A chooses) */
	function mainFile(list) {
		var best = null, most = -1;
		list.forEach(function (r) {
			var t = weight(r) + (r.inlined ? 0 : 1e9);
			if (r.file && r.line && t > most) { most = t; best = r.file; }
		});
		return best;
	}
	/* the function's lines in that file, inlined code at a line summed */
	function perLine(list, file) {
		var m = new Map();
		list.forEach(function (r) {
			if (r.file !== file || !r.line) return;
			var l = m.get(r.line);
			if (!l) m.set(r.line, l = { line: r.line, samples: 0, seconds: 0, a: 0, b: 0, a_s: 0, b_s: 0,
				change: 0, significant: false, changed: false, inlined: [] });
			if (diff) {
				l.a += r.baseline_samples; l.b += r.second_samples;
				l.a_s += r.baseline_seconds; l.b_s += r.second_seconds;
				l.change += r.change;
				l.significant = l.significant || r.significant;
				l.changed = l.changed || r.baseline_samples !== r.second_samples;
			} else {
				l.samples += r.samples;
				l.seconds += r.seconds;
			}
			if (r.inlined && l.inlined.indexOf(r.inlined) < 0) l.inlined.push(r.inlined);
		});
		return m;
	}
	function lineWeight(l) { return diff ? Math.max(l.a_s, l.b_s) : l.seconds; }
	function verdictOf(l) {
		if (!diff) return '';
		return !l.changed ? 'equal' : l.significant ? 'significant' : 'noise';
	}

	function timeCells(l, max) {
		var w = max > 0 ? 100 * lineWeight(l) / max : 0;
		var bar = el('td', { cls: 'src-bar' }, [el('span', { style: 'width:' + w.toFixed(1) + '%' })]);
		if (!diff)
			return [bar, el('td', { cls: 'num', text: l.seconds ? secs(l.seconds) : '' })];
		var v = verdictOf(l);
		return [bar, el('td', { cls: 'num', text: l.a || l.b ? secs(l.a_s) : '' }),
			el('td', { cls: 'num', text: l.a || l.b ? secs(l.b_s) : '' }),
			el('td', { cls: 'num ' + (l.change > 0 ? 'less' : l.change < 0 ? 'more' : ''),
				text: l.a || l.b ? signed(l.change) : '' }),
			el('td', { cls: 'src-verdict' }, [v === 'significant' ?
				el('span', { cls: 'verdict significant' + (l.change > 0 ? ' less' : ''), text: 'beyond noise' }) :
				v === 'noise' ? el('span', { cls: 'verdict noise', text: '~' }) : ''])];
	}
	function head() {
		return el('tr', {}, (diff ? ['', 'line', '', 'A s', 'B s', 'change', 'verdict', 'source']
					  : ['', 'line', '', 'seconds', 'source']).map(function (t) {
			return el('th', { text: t });
		}));
	}
	function listingRow(n, l, text, max, hot) {
		var tr = el('tr', { 'data-line': String(n) });
		if (l) {
			if (diff) {
				tr.setAttribute('data-a', String(l.a));
				tr.setAttribute('data-b', String(l.b));
				tr.setAttribute('data-verdict', verdictOf(l));
				if (l.significant) tr.classList.add('sig', l.change > 0 ? 'less' : 'more');
			} else {
				tr.setAttribute('data-samples', String(l.samples));
			}
			tr.classList.add('sampled');
		}
		if (hot) { tr.classList.add('hot'); tr.setAttribute('data-hot', 'true'); }
		var cells = [el('td', { cls: 'src-mark', text: hot ? '\u25B6' : '' }),
			el('td', { cls: 'ln', text: String(n) })];
		cells = cells.concat(l ? timeCells(l, max) : (diff ? ['', '', '', '', ''] : ['', '']).map(function () {
			return el('td');
		}));
		var code = el('td', { cls: 'code', text: text === null ? '' : text });
		if (l && l.inlined.length) code.setAttribute('title', 'inlined here: ' + l.inlined.join(', '));
		cells.push(code);
		cells.forEach(function (c) { tr.appendChild(c); });
		return tr;
	}
	function gapRow() {
		var tr = el('tr', { cls: 'gap' });
		tr.appendChild(el('td', { colspan: String(diff ? 8 : 5), text: '\u22EE' }));
		return tr;
	}

	/* the embedded text of `file` at lines [lo, hi]: a Map line -> text */
	function textOf(f, lo, hi) {
		var m = new Map();
		(f && f.ranges || []).forEach(function (r) {
			for (var i = 0; i < r.text.length; i++) {
				var n = r.first + i;
				if (n >= lo && n <= hi) m.set(n, r.text[i]);
			}
		});
		return m;
	}

	function listing(list, file) {
		var lines = perLine(list, file), nums = Array.from(lines.keys()).sort(function (a, b) { return a - b; });
		var ctx = sources.context || 0, f = byFile.get(file), max = 0, hot = null;
		lines.forEach(function (l) {
			if (lineWeight(l) > max) { max = lineWeight(l); hot = l.line; }
		});
		var frag = [];
		if (!f || f.readable === null || f.cut)
			frag.push(el('p', { cls: 'note', id: 'src-unread', text: 'The source file ' + file +
				(f && f.readable ? ' is embedded in part' : ' was not embedded') + ': the page\'s source ' +
				'text reached its cap of ' + sources.cap_bytes + ' bytes; lines without text show their ' +
				'times alone.' }));
		else if (!f.readable)
			frag.push(el('p', { cls: 'note', id: 'src-unread', text: '(the source file ' + file +
				' cannot be read: ' + f.why + '; its lines\' times alone)' }));
		var table = el('table', { cls: 'data src', id: 'src-listing' }), body = el('tbody');
		table.appendChild(el('thead', {}, [head()]));
		var lo = nums[0] - ctx, hi = nums[nums.length - 1] + ctx;
		var text = textOf(f, lo, hi), shown = [];
		/* each sampled line, and each embedded line of the span (the
		 * command embedded the whole span, or each sampled line's
		 * neighbourhood when the span is long) */
		text.forEach(function (t, n) { shown.push(n); });
		nums.forEach(function (n) { if (!text.has(n)) shown.push(n); });
		shown.sort(function (a, b) { return a - b; });
		shown.forEach(function (n, i) {
			if (i && n > shown[i - 1] + 1) body.appendChild(gapRow());
			body.appendChild(listingRow(n, lines.get(n), text.has(n) ? text.get(n) : null, max, n === hot));
		});
		table.appendChild(body);
		frag.push(el('div', { cls: 'tablewrap src-wrap' }, [table]));
		return frag;
	}

	/* every row of the function: other files (inlined code), no line */
	function rowsTable(list) {
		var table = el('table', { cls: 'data', id: 'src-rows' }), body = el('tbody');
		var cols = diff ? ['line', 'inlined', 'A samples', 'B samples', 'A s', 'B s', 'change', 'z', 'verdict']
				: ['line', 'inlined', 'samples', 'seconds'];
		table.appendChild(el('thead', {}, [el('tr', {}, cols.map(function (t, i) {
			return el('th', { text: t, cls: i < 2 ? 'text' : '' });
		}))]));
		list.slice().sort(function (p, q) { return weight(q) - weight(p) || (p.line || 0) - (q.line || 0); })
			.forEach(function (r) {
				var where = r.file ? baseName(r.file) + ':' + r.line : '??';
				var tr = el('tr', { 'data-file': r.file || '', 'data-line': String(r.line || 0) });
				var cells = [el('td', { cls: 'text', text: where, title: r.file || 'no line information' }),
					el('td', { cls: 'text', text: r.inlined || '' })];
				if (diff) {
					var changed = r.baseline_samples !== r.second_samples;
					cells = cells.concat([String(r.baseline_samples), String(r.second_samples),
						secs(r.baseline_seconds), secs(r.second_seconds), signed(r.change),
						r.z === null || r.z === undefined ? '' : Number(r.z).toFixed(1),
						!changed ? '' : r.significant ? 'beyond noise' : '~'].map(function (t) {
							return el('td', { text: t });
						}));
					tr.setAttribute('data-verdict', !changed ? 'equal' : r.significant ? 'significant' : 'noise');
				} else {
					cells = cells.concat([el('td', { text: String(r.samples) }), el('td', { text: secs(r.seconds) })]);
					tr.setAttribute('data-samples', String(r.samples));
				}
				cells.forEach(function (c) { tr.appendChild(c); });
				body.appendChild(tr);
			});
		table.appendChild(body);
		return el('div', { cls: 'tablewrap' }, [table]);
	}

	var view = {
		fn: null,
		select: function (name) {
			name = name || first;
			if (name === view.fn) return;
			view.fn = name;
			var list = name ? byFn.get(name) : null;
			if (!list) {
				title.textContent = name ? 'No sampled line of ' + name + ' (no samples in it, or ' +
					'code without line information).' : 'No sampled line.';
				box.replaceChildren();
				return;
			}
			if (pick.value !== name) pick.value = name;
			var file = mainFile(list), tot = 0, tot2 = 0;
			list.forEach(function (r) {
				tot += diff ? r.baseline_seconds : r.seconds;
				tot2 += diff ? r.second_seconds : 0;
			});
			title.replaceChildren(el('b', { text: name }), ' \u2014 ' +
				(diff ? secs(tot) + ' s (A), ' + secs(tot2) + ' s (B)' : secs(tot) + ' s') +
				(file ? ' \u2014 ' + file : ' \u2014 no line information'));
			var kids = file ? listing(list, file) : [];
			kids.push(el('h3', { text: 'Every line of ' + name }));
			kids.push(rowsTable(list));
			box.replaceChildren.apply(box, kids);
		}
	};
	window.egprofSource = view;
	view.select(first);
	return view;
};
