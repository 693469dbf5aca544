import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Memory store","description":"","frontmatter":{},"headers":[],"relativePath":"integrations/memory.md","filePath":"integrations/memory.md"}');
const _sfc_main = { name: "integrations/memory.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="memory-store" tabindex="-1">Memory store <a class="header-anchor" href="#memory-store" aria-label="Permalink to &quot;Memory store&quot;">​</a></h1><p><code>createMemoryStore()</code> from <code>graded-tools</code> is the default store of a <code>ToolRegistry</code>: nothing to install, confirmations kept in the process. For tests, demos and one process that may lose open confirmations on a restart; for anything else, <a href="./sqlite.html">SQLite</a>, <a href="./postgres.html">PostgreSQL</a> or <a href="./d1.html">D1</a>.</p><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light-high-contrast github-dark-high-contrast vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;">import</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;"> { createMemoryStore, ToolRegistry } </span><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;">from</span><span style="--shiki-light:#032563;--shiki-dark:#ADDCFF;"> &#39;graded-tools&#39;</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;">;</span></span>
<span class="line"></span>
<span class="line"><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;">const</span><span style="--shiki-light:#023B95;--shiki-dark:#91CBFF;"> registry</span><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;"> =</span><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;"> new</span><span style="--shiki-light:#622CBC;--shiki-dark:#DBB7FF;"> ToolRegistry</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;">({ confirmations: </span><span style="--shiki-light:#622CBC;--shiki-dark:#DBB7FF;">createMemoryStore</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;">({ maxRecords: </span><span style="--shiki-light:#023B95;--shiki-dark:#91CBFF;">10_000</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;"> }) });</span></span></code></pre></div><p>It keeps up to <code>maxRecords</code> (default 100,000), dropping the confirmations that finished first (in constant time) and refusing new ones (<code>STORE_FAILED</code>) when every one is still open, rather than growing without bound. Its sweeps read only the open records and <code>list</code> reads newest first and stops at its limit. It has every capability but <code>watch</code> (changes made through the registry are reported by the registry itself, and no other process shares it) and passes the same contract suite as the other stores.</p><p>How the stores compare: <a href="./../guide/stores.html">stores</a>. Every option: <a href="./../api/graded-tools.html#creatememorystore">API reference</a>.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("integrations/memory.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const memory = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  memory as default
};
