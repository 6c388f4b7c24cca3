// Our demos on someone else's page: <script type="module" src="…/embed.js"></script> and
// <ptr-demo name="sequences" points="0.1,0.2_0.8,0.3_0.5,0.9"></ptr-demo>. Every <ptr-demo> on
// the page shares one Python worker; each renders in its own shadow root, so the host's CSS
// and ours never meet. Attributes are parsed like permalink values, never put into HTML.
import { CONTROLLERS } from "./js/demos/index.js";
import { DEMOS } from "./js/generated/demos.js";
import { freeInstances } from "./js/runtime/callers.js";
import { getRuntime } from "./js/runtime/client.js";
import { attributeStore } from "./js/ui/permalink.js";
import { bindBanner } from "./js/ui/runtime-banner.js";

const SITE_URL = new URL("./", import.meta.url);
const STYLESHEETS = ["css/site.css", "css/embed.css"].map((path) => new URL(path, SITE_URL).href);

class PtrDemo extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot?.childElementCount) return; // moved within the page: keep the running demo
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    for (const href of STYLESHEETS) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      shadow.append(link);
    }
    const name = this.getAttribute("name") ?? "";
    const controller = Object.hasOwn(CONTROLLERS, name) ? CONTROLLERS[name] : null;
    if (!controller) {
      console.warn(`<ptr-demo>: 알 수 없는 데모 이름 "${name}". 가능한 이름: ${Object.keys(CONTROLLERS).join(", ")}`);
      const message = document.createElement("p");
      message.className = "embed-status";
      message.dataset.stage = "error";
      message.textContent = `알 수 없는 데모입니다: "${name}"`;
      shadow.append(message);
      return;
    }
    const runtime = getRuntime();
    const status = document.createElement("p");
    status.className = "embed-status";
    status.setAttribute("role", "status");
    const root = document.createElement("div");
    root.className = "demo";
    root.dataset.demo = name;
    const credit = document.createElement("p");
    credit.className = "embed-credit";
    const link = document.createElement("a");
    link.href = new URL(`${DEMOS[name].page}#${DEMOS[name].anchor}`, SITE_URL).href;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "포인터 네트워크, 직접 만져 보기";
    credit.append("출처: ", link);
    shadow.append(status, root, credit);
    bindBanner(runtime, status);
    runtime.onStatus(({ stage }) => {
      this.dataset.python = stage === "ready" || stage === "error" ? stage : "loading";
    });
    controller.mount(root, runtime, attributeStore(this, SITE_URL));
  }

  // Removed for good (not just moved, which reconnects in the same task): the worker forgets this
  // element's models and the demo stops; put back later, it starts afresh.
  disconnectedCallback() {
    setTimeout(() => {
      if (this.isConnected || !this.shadowRoot) return;
      freeInstances(this.shadowRoot);
      this.shadowRoot.replaceChildren();
    }, 0);
  }
}

if (!customElements.get("ptr-demo")) customElements.define("ptr-demo", PtrDemo);
