// flamegraph.js - the script of egprof's --flamegraph SVG (export/flamegraph.c
// writes the frames and embeds this file): hover details, click to zoom,
// search by regular expression (or by text, when the pattern is not a valid
// expression) with the matched share of the samples.  Each frame is a
// group (g, class f) whose data-x and data-v are its left edge and width in
// samples, data-d its depth, data-p its parent frame's index; the first
// line of its <title> is the function's name.  Nothing is fetched: the file
// works opened from disk.
//
// For scripts and tests: window.flamegraph.search(pattern) returns
// {frames, samples, percent}; .zoom(i), .reset(), .clear(); the root
// element gets data-fg-ready="true" once the script has run.
(function () {
	"use strict";
	var svg = document.documentElement;
	var NS = "http://www.w3.org/2000/svg";
	var W = parseFloat(svg.getAttribute("width"));
	var PAD = 10, FRAME_H = 16, CHAR_W = 0.59 * 12;
	var groups = Array.prototype.slice.call(document.querySelectorAll("#frames g.f"));
	var n = groups.length;
	var x = new Array(n), v = new Array(n), d = new Array(n), p = new Array(n);
	var name = new Array(n), merged = new Array(n), fill = new Array(n);
	var i;
	for (i = 0; i < n; i++) {
		var g = groups[i];
		x[i] = parseFloat(g.getAttribute("data-x"));
		v[i] = parseFloat(g.getAttribute("data-v"));
		d[i] = parseInt(g.getAttribute("data-d"), 10);
		p[i] = g.hasAttribute("data-p") ? parseInt(g.getAttribute("data-p"), 10) : -1;
		merged[i] = g.hasAttribute("data-m");
		name[i] = i === 0 ? "all" : g.querySelector("title").textContent.split("\n")[0];
		fill[i] = g.querySelector("rect").getAttribute("fill");
		g.setAttribute("data-i", i);
	}
	var total = n ? v[0] : 0;
	var details = document.getElementById("details");
	var matchedText = document.getElementById("matched");
	var unzoomBtn = document.getElementById("unzoom");
	var clearBtn = document.getElementById("clear");
	var zoomed = 0, lastSearch = null;

	function fitLabel(g, label, px, left) {
		var t = g.querySelector("text");
		var fit = Math.floor((px - 6) / CHAR_W);
		if (fit < 3) {
			if (t) t.textContent = "";
			return;
		}
		if (!t) {
			t = document.createElementNS(NS, "text");
			g.appendChild(t);
		}
		t.setAttribute("x", (left + 3).toFixed(2));
		t.setAttribute("y", g.querySelector("rect").getAttribute("y") * 1 + FRAME_H - 4);
		t.textContent = label.length <= fit ? label : label.substring(0, fit - 1) + "\u2026";
	}

	// Draw the subtree of frame z across the whole width; its callers stay,
	// full width and faded; every other frame is hidden.  Children lie
	// within their parent's samples and frames of one depth do not overlap,
	// so a deeper frame inside z's range is below z.
	function zoom(z) {
		var zx = x[z], zw = v[z] || 1, plot = W - 2 * PAD, scale = plot / zw;
		var above = {}, k;
		for (k = p[z]; k >= 0; k = p[k]) above[k] = true;
		for (var j = 0; j < n; j++) {
			var g = groups[j], inside = j === z ||
				(d[j] > d[z] && x[j] >= zx && x[j] + v[j] <= zx + zw);
			g.classList.toggle("hide", !inside && !above[j]);
			g.classList.toggle("above", !!above[j]);
			if (!inside && !above[j]) continue;
			var left = above[j] ? PAD : PAD + (x[j] - zx) * scale;
			var px = above[j] ? plot : v[j] * scale;
			var r = g.querySelector("rect");
			r.setAttribute("x", left.toFixed(2));
			r.setAttribute("width", px.toFixed(3));
			fitLabel(g, name[j], px, left);
		}
		zoomed = z;
		unzoomBtn.classList.toggle("off", z === 0);
		if (lastSearch !== null) search(lastSearch);
	}

	function reset() { zoom(0); }

	// Mark the frames whose name matches; the share counts a frame once
	// even when a caller of it matched too (recursion).
	function search(pattern) {
		var re = null, frames = 0, samples = 0, covered = new Array(n);
		try { re = new RegExp(pattern); } catch (e) { re = null; }
		for (var j = 0; j < n; j++) {
			var hit = !merged[j] && j > 0 &&
				(re ? re.test(name[j]) : name[j].indexOf(pattern) >= 0);
			var r = groups[j].querySelector("rect");
			r.setAttribute("fill", hit ? "rgb(230,0,230)" : fill[j]);
			groups[j].classList.toggle("match", hit);
			covered[j] = hit || (p[j] >= 0 && covered[p[j]]);
			if (hit) {
				frames++;
				if (!(p[j] >= 0 && covered[p[j]])) samples += v[j];
			}
		}
		var pct = total ? 100 * samples / total : 0;
		lastSearch = pattern;
		matchedText.textContent = "Matched: " + pct.toFixed(1) + "% (" + frames + " frames)";
		clearBtn.classList.remove("off");
		return { frames: frames, samples: samples, percent: pct };
	}

	function clear() {
		for (var j = 0; j < n; j++) {
			groups[j].querySelector("rect").setAttribute("fill", fill[j]);
			groups[j].classList.remove("match");
		}
		lastSearch = null;
		matchedText.textContent = "";
		clearBtn.classList.add("off");
	}

	function ask() {
		var s = window.prompt("Search (a regular expression, or text)", lastSearch || "");
		if (s) search(s);
	}

	function frameOf(e) {
		var g = e.target.closest ? e.target.closest("g.f") : null;
		return g ? parseInt(g.getAttribute("data-i"), 10) : -1;
	}

	svg.addEventListener("click", function (e) {
		var j = frameOf(e);
		if (j >= 0 && !merged[j]) zoom(j);
	});
	svg.addEventListener("mouseover", function (e) {
		var j = frameOf(e);
		if (j < 0) return;
		var t = groups[j].querySelector("title").textContent.split("\n");
		details.textContent = t[0] + " \u2014 " + t.slice(1).join("; ");
	});
	svg.addEventListener("mouseout", function () { details.textContent = " "; });
	unzoomBtn.addEventListener("click", function (e) { e.stopPropagation(); reset(); });
	document.getElementById("search").addEventListener("click", function (e) {
		e.stopPropagation();
		ask();
	});
	clearBtn.addEventListener("click", function (e) { e.stopPropagation(); clear(); });
	window.addEventListener("keydown", function (e) {
		if ((e.ctrlKey && e.key === "f") || e.key === "/") {
			e.preventDefault();
			ask();
		} else if (e.key === "Escape") {
			clear();
			reset();
		}
	});
	window.flamegraph = { search: search, zoom: zoom, reset: reset, clear: clear,
			      zoomed: function () { return zoomed; } };
	svg.setAttribute("data-fg-ready", "true");
})();
