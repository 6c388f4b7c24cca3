"""The readers' other devices, for the device tests and benchmarks: Chromium held to a slice of one core,
Firefox ESR over WebDriver BiDi, and WebKitGTK's MiniBrowser through its WebDriver on a virtual screen.

Each browser is a `Browser`: goto(url) and value(script), where script is a JavaScript expression whose
value is JSON-serialisable (promises awaited). Playwright's own Firefox and WebKit builds cannot be
downloaded here; these are Debian's (firefox-esr, webkit2gtk-driver, xvfb; .ci/run installs them).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.harness import chromium

MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
WEBKIT_DRIVER = "WebKitWebDriver"
FIREFOX = "firefox-esr"
START_TIMEOUT_S = 60

# Firefox, quiet: no update, telemetry, studies or remote settings (this machine reaches no such host).
FIREFOX_PREFS = {
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "extensions.update.enabled": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "services.settings.server": "data:,",
    "toolkit.telemetry.server": "",
}


class Unavailable(Exception):
    """This machine lacks what a device needs (a package, root for a CPU quota)."""


# ---- Chromium on a slice of one core ----------------------------------------------------------------

CGROUP_V1 = Path("/sys/fs/cgroup/cpu")
CGROUP_V2 = Path("/sys/fs/cgroup")
PERIOD_US = 100_000


@contextmanager
def cpu_quota(share: float) -> Iterator[Path]:
    """A launcher for Debian's Chromium whose whole process tree (renderers, workers, V8's compile
    threads) gets `share` of one core: a Linux cgroup CPU quota, as a slow phone would. Yields its path."""
    name = f"ptrnet-slow-{os.getpid()}-{time.monotonic_ns()}"
    quota = max(1000, round(share * PERIOD_US))
    v2_controllers = CGROUP_V2 / "cgroup.controllers"
    if (CGROUP_V1 / "cpu.cfs_quota_us").exists():
        group = CGROUP_V1 / name
        files = {"cpu.cfs_period_us": PERIOD_US, "cpu.cfs_quota_us": quota}
    elif v2_controllers.exists() and "cpu" in v2_controllers.read_text().split():
        group = CGROUP_V2 / name
        files = {"cpu.max": f"{quota} {PERIOD_US}"}
    else:
        raise Unavailable("no cgroup CPU controller on this machine")
    try:
        group.mkdir()
        for file, value in files.items():
            (group / file).write_text(str(value))
    except OSError as err:
        raise Unavailable(f"cannot make a CPU-quota cgroup (run as root): {err}") from err
    folder = Path(tempfile.mkdtemp(prefix="slow-chromium-"))
    launcher = folder / "chromium"
    launcher.write_text(f'#!/bin/sh\necho $$ > "{group}/cgroup.procs"\nexec "{chromium()}" "$@"\n')
    launcher.chmod(0o755)
    try:
        yield launcher
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        for _ in range(50):  # the browser's processes leave the group as they exit
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)


class Chromium:
    """A Playwright page in Chromium as a `Browser`."""

    name = "Chromium"

    def __init__(self, page) -> None:
        self.page = page

    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="commit", timeout=120_000)

    def value(self, script: str):
        # A function, not an expression string: the pages' CSP forbids eval.
        return json.loads(self.page.evaluate(f"async () => JSON.stringify(await ({script}))"))


# ---- Firefox ESR over WebDriver BiDi ----------------------------------------------------------------


class Firefox:
    """Debian's Firefox ESR, headless, driven over WebDriver BiDi with a plain WebSocket."""

    name = "Firefox ESR"

    def __init__(self) -> None:
        import websocket

        if not shutil.which(FIREFOX):
            raise Unavailable("firefox-esr is not installed (apt-get install firefox-esr)")
        self.profile = Path(tempfile.mkdtemp(prefix="firefox-profile-"))
        prefs = "".join(f'user_pref("{k}", {json.dumps(v)});\n' for k, v in FIREFOX_PREFS.items())
        (self.profile / "user.js").write_text(prefs)
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--profile", str(self.profile), "--remote-debugging-port=0"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        address = self._address()
        # Firefox refuses a handshake that names an Origin; a WebDriver client sends none.
        self.socket = websocket.create_connection(address + "/session", suppress_origin=True, timeout=120)
        self.ids = itertools.count(1)
        self.version = self._send("session.new", {"capabilities": {}})["capabilities"]["browserVersion"]
        self.context = self._send("browsingContext.getTree", {})["contexts"][0]["context"]

    def _address(self) -> str:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                break
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if found:
                # Read the rest of its output, so that a full pipe never blocks the browser.
                threading.Thread(target=self.process.stderr.read, daemon=True).start()
                return found.group(1)
        self.close()
        raise RuntimeError("Firefox did not open its WebDriver BiDi port")

    def _send(self, method: str, params: dict) -> dict:
        command = next(self.ids)
        self.socket.send(json.dumps({"id": command, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") != command:
                continue  # an event: none is subscribed to
            if message.get("type") == "error":
                raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
            return message["result"]

    def goto(self, url: str) -> None:
        self._send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def value(self, script: str):
        reply = self._send(
            "script.evaluate",
            {
                "expression": f"(async () => JSON.stringify(await ({script})))()",
                "target": {"context": self.context},
                "awaitPromise": True,
            },
        )
        if reply.get("type") == "exception":
            raise RuntimeError(reply["exceptionDetails"].get("text"))
        return json.loads(reply["result"]["value"])

    def close(self) -> None:
        try:
            self.socket.close()
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# ---- WebKitGTK (Safari's engine) --------------------------------------------------------------------


@contextmanager
def virtual_screen() -> Iterator[str]:
    """An Xvfb display for the length of the block: its DISPLAY value."""
    if not shutil.which("Xvfb"):
        raise Unavailable("Xvfb is not installed (apt-get install xvfb)")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        display = pipe.readline().strip()
    if not display:
        server.kill()
        raise RuntimeError("Xvfb did not start")
    try:
        yield f":{display}"
    finally:
        server.terminate()
        server.wait(10)


class WebKit:
    """WebKitGTK's MiniBrowser (the engine of Safari and of every iPhone browser), through Debian's
    WebKitWebDriver and Selenium, on a virtual screen."""

    name = "WebKitGTK"

    def __init__(self, display: str) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        if not MINIBROWSER.exists() or not shutil.which(WEBKIT_DRIVER):
            raise Unavailable("WebKitGTK's driver or MiniBrowser is missing (apt-get install webkit2gtk-driver)")
        options = Options()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        service = Service(executable_path=shutil.which(WEBKIT_DRIVER), env={**os.environ, "DISPLAY": display})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(120)
        self.version = self.driver.capabilities.get("browserVersion")

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def value(self, script: str):
        text = self.driver.execute_async_script(
            f"const done = arguments[arguments.length - 1];"
            f"(async () => JSON.stringify(await ({script})))().then(done, (err) => done(JSON.stringify({{__error: String(err)}})));"
        )
        value = json.loads(text)
        if isinstance(value, dict) and "__error" in value:
            raise RuntimeError(value["__error"])
        return value

    def close(self) -> None:
        self.driver.quit()
