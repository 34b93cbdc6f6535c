#!/usr/bin/env python3
"""browser.py - open a page in headless Chromium and report what happened.

    browser.py PAGE [--eval NAME=EXPR]... [--pixel NAME=EXPR]... [--init JS]...
               [--screenshot PNG] [--size WxH] [--wait EXPR] [--timeout S]

Drives Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: fds 3 and 4, NUL-terminated JSON), so it needs
nothing but python3 and Debian's chromium.  Prints one JSON object:

  ready       EXPR (--wait, default: the egprof report's ready mark) held;
              --init JS runs in the page before its own scripts
  load_ms     from the navigation to ready, wall clock
  requests    every URL the page asked for (Network.requestWillBeSent)
  errors      console errors, exceptions and CSP violations (Log, Runtime)
  evals       {NAME: value} of each --eval EXPR, once ready
  pixels      {NAME: [r, g, b]}: for each --pixel NAME=EXPR, the colour
              the screen shows at the point [x, y] of the viewport EXPR
              gives (a 1-pixel
              screenshot there, decoded by png.py)
  screenshot  the PNG's path, when asked

The Chromium flags are those a root user on a CI machine needs: no
sandbox, no GPU, no background networking, no component updates, a fresh
profile directory.  CHROMIUM names the binary (default: chromium).
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="egprof-chromium-")
        exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or "chromium"
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # the child reads commands on fd 3 and writes on fd 4 (copies
        # first: either pipe end may be fd 3 or 4 already); subprocess
        # closes every other fd after setup() runs
        def setup():
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(r, 3)
            os.dup2(w, 4)
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-sync", "--mute-audio", "--hide-scrollbars",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
             "--window-size=%d,%d" % (width, height), "about:blank"],
            preexec_fn=setup, pass_fds=(3, 4),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def close(self):
        try:
            self.send("Browser.close", session=False, wait=False)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)

    def read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True, wait=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        if not wait:
            return None
        deadline = time.time() + timeout
        while True:
            m = self.read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def pump(self, seconds):
        """Collect events for a while (the page may still be loading)."""
        deadline = time.time() + seconds
        import select
        while time.time() < deadline:
            r, _, _ = select.select([self.from_chrome], [], [], max(0, deadline - time.time()))
            if not r:
                break
            self.buf += os.read(self.from_chrome, 1 << 20)
            while b"\0" in self.buf:
                msg, self.buf = self.buf.split(b"\0", 1)
                self.events.append(json.loads(msg))

    def evaluate(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            return {"exception": r["exceptionDetails"].get("text", "")}
        return r.get("result", {}).get("value")


def main():
    args = sys.argv[1:]
    page, evals, shot, size, wait, timeout = None, [], None, (1280, 900), None, 60.0
    pixels, inits = [], []
    while args:
        a = args.pop(0)
        if a == "--eval":
            name, expr = args.pop(0).split("=", 1)
            evals.append((name, expr))
        elif a == "--pixel":
            name, expr = args.pop(0).split("=", 1)
            pixels.append((name, expr))
        elif a == "--init":
            inits.append(args.pop(0))
        elif a == "--screenshot":
            shot = args.pop(0)
        elif a == "--size":
            w, h = args.pop(0).split("x")
            size = (int(w), int(h))
        elif a == "--wait":
            wait = args.pop(0)
        elif a == "--timeout":
            timeout = float(args.pop(0))
        else:
            page = a
    if not page:
        sys.exit(__doc__)
    url = page if "://" in page else "file://" + os.path.abspath(page)
    wait = wait or "document.documentElement.getAttribute('data-egprof-ready') === 'true'"
    b = Browser(*size)
    out = {"ready": False, "requests": [], "errors": [], "evals": {}, "pixels": {}}
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        b.session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                           session=False)["sessionId"]
        for domain in ("Network", "Page", "Runtime", "Log"):
            b.send(domain + ".enable")
        # errors the page throws, kept by the page too (belt and braces:
        # the protocol's events are the primary record)
        b.send("Page.addScriptToEvaluateOnNewDocument", {"source":
               "window.__egprof_errors = [];"
               "window.addEventListener('error', function (e) {"
               " window.__egprof_errors.push(String(e.message)); });"})
        for src in inits:
            b.send("Page.addScriptToEvaluateOnNewDocument", {"source": src})
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
        t0 = time.time()
        b.send("Page.navigate", {"url": url})
        deadline = t0 + timeout
        while time.time() < deadline:
            if b.evaluate(wait) is True:
                out["ready"] = True
                break
            b.pump(0.02)
        out["load_ms"] = round((time.time() - t0) * 1000, 1)
        b.pump(0.3)  # late requests, console messages
        for name, expr in evals:
            out["evals"][name] = b.evaluate(expr)
            if isinstance(out["evals"][name], dict) and "await" in out["evals"][name]:
                # {"await": EXPR}: poll EXPR until it is not null
                until = time.time() + 20
                while time.time() < until:
                    v = b.evaluate(out["evals"][name]["await"])
                    if v is not None:
                        break
                    b.pump(0.05)
                out["evals"][name] = v
        for name, expr in pixels:
            at = b.evaluate(expr)
            if not isinstance(at, list):
                out["pixels"][name] = None
                continue
            # the clip is in page coordinates, the point in the viewport's
            sx, sy = b.evaluate("[window.scrollX, window.scrollY]")
            clip = {"x": at[0] + sx, "y": at[1] + sy, "width": 1, "height": 1, "scale": 1}
            data = b.send("Page.captureScreenshot", {"format": "png", "clip": clip})["data"]
            tmp = tempfile.NamedTemporaryFile(suffix=".png", delete=False)
            tmp.write(base64.b64decode(data))
            tmp.close()
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import png
            out["pixels"][name] = list(png.read(tmp.name).pixel(0, 0))
            os.unlink(tmp.name)
        if shot:
            png_data = b.send("Page.captureScreenshot", {"format": "png"})["data"]
            with open(shot, "wb") as f:
                f.write(base64.b64decode(png_data))
            out["screenshot"] = shot
        b.pump(0.1)
        page_errors = b.evaluate("window.__egprof_errors") or []
        for e in b.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Network.requestWillBeSent":
                out["requests"].append(p["request"]["url"])
            elif m == "Runtime.exceptionThrown":
                out["errors"].append(p["exceptionDetails"].get("text", "") + " " +
                                     str(p["exceptionDetails"].get("exception", {}).get("description", "")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out["errors"].append(" ".join(str(a.get("value", a.get("description", "")))
                                              for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
                out["errors"].append(p["entry"].get("text", ""))
        for text in page_errors:
            if not any(text in e for e in out["errors"]):
                out["errors"].append(text)
    finally:
        b.close()
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
