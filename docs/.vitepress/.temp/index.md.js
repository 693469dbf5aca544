import { ssrRenderAttrs, ssrRenderAttr } from "vue/server-renderer";
import { _ as _imports_0 } from "./console.BjvtOotQ.js";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"graded-tools","description":"","frontmatter":{"aside":false},"headers":[],"relativePath":"index.md","filePath":"index.md"}');
const _sfc_main = { name: "index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="graded-tools" tabindex="-1">graded-tools <a class="header-anchor" href="#graded-tools" aria-label="Permalink to &quot;graded-tools&quot;">​</a></h1><p>Hand your app&#39;s capabilities to an LLM agent by <strong>side-effect grade</strong>: the model may read, a fixed plan may write, and only a person&#39;s confirmation sends.</p><ul><li><strong>A hallucinated or injected call can never send.</strong> The model is shown read tools only. A call to anything else — a write, a send, a name it made up — is answered exactly like a tool that does not exist, and nothing runs. The agent&#39;s draft becomes a <em>proposal</em>; the agent never holds a send.</li><li><strong>A person sees exactly what goes out.</strong> A proposal waits, with the agent&#39;s reason and links and what confirming will do, until a person confirms the exact payload they were shown — bound by its digest, delivered exactly once, even with double clicks, retries and several app instances.</li><li><strong>The agent hears the decision.</strong> &quot;Sent at …&quot;, &quot;A person rejected this: <em>reason</em>&quot; or &quot;it expired&quot; goes back to the run that asked, for its next turn.</li></ul><p><img${ssrRenderAttr("src", _imports_0)} alt="The approvals console&#39;s inbox: pending sends, each saying what confirming does, who asked and when it expires"></p><p>The console above is <code>graded-tools/console</code>, mounted in your app behind your own sign-in: see <a href="./guide/console.html">the approvals console</a>.</p><h2 id="where-to-start" tabindex="-1">Where to start <a class="header-anchor" href="#where-to-start" aria-label="Permalink to &quot;Where to start&quot;">​</a></h2><ul><li><a href="./guide/getting-started.html">Getting started</a>: install, the quick start, and the loop from an agent&#39;s draft to a person&#39;s decision.</li><li><a href="./guide/concepts.html">Concepts</a>: grades, gates, the model&#39;s exit, wire names, plans, confirmations.</li><li><a href="./integrations/">Integrations</a>: OpenAI, Anthropic, Gemini, the Vercel AI SDK, MCP, OpenAI Agents, LangChain and Mastra; memory, SQLite, PostgreSQL and Cloudflare D1 stores.</li><li><a href="./guide/runtimes.html">Runtimes</a>: Node, Bun, Deno and Cloudflare Workers, and what tests each.</li><li><a href="/api/">API reference</a>: every export, generated from the types.</li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
