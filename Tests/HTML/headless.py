"""Loads a self-contained page in headless Chromium with a probe script added before </body>
(the probe appends <pre id="check"> holding JSON) and returns what the probe found; saves a
screenshot of the page as it is. Shared by the page checks."""
import html as htmllib, json, os, re, shutil, subprocess, sys


def probe_page(page, probe, name, screenshot, window="1200,900"):
    """The probe's JSON for `page`; exits naming `name` when the page reaches for the network or
    does not finish loading. The screenshot goes to `screenshot` beside the page."""
    folder = os.path.dirname(os.path.abspath(page))
    text = open(page, encoding="utf-8").read()
    if re.search(r'(src|href)="(https?:|//)', text):
        sys.exit(f"{name}: the page loads something from the network")
    harness = os.path.join(folder, ".check-" + os.path.basename(page))
    open(harness, "w", encoding="utf-8").write(text.replace("</body>", probe + "</body>"))
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    common = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
              "--hide-scrollbars", "--virtual-time-budget=10000", f"--window-size={window}"]
    try:
        dom = subprocess.run(common + ["--dump-dom", "file://" + harness], capture_output=True, text=True,
                             timeout=120).stdout
        subprocess.run(common + [f"--screenshot={folder}/{screenshot}", "file://" + os.path.abspath(page)],
                       capture_output=True, timeout=120)
    finally:
        os.unlink(harness)
    found = re.search(r'<pre id="check">(.*?)</pre>', dom, re.S)
    if not found:
        sys.exit(f"{name}: the page did not finish loading in Chromium")
    return json.loads(htmllib.unescape(found.group(1)))
