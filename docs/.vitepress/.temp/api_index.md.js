import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"graded-tools","description":"","frontmatter":{},"headers":[],"relativePath":"api/index.md","filePath":"api/index.md"}');
const _sfc_main = { name: "api/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="graded-tools" tabindex="-1">graded-tools <a class="header-anchor" href="#graded-tools" aria-label="Permalink to &quot;graded-tools&quot;">​</a></h1><h2 id="modules" tabindex="-1">Modules <a class="header-anchor" href="#modules" aria-label="Permalink to &quot;Modules&quot;">​</a></h2><ul><li><a href="./graded-tools.html">graded-tools</a></li><li><a href="./graded-tools/ai-sdk.html">graded-tools/ai-sdk</a></li><li><a href="./graded-tools/ajv-engine.html">graded-tools/ajv-engine</a></li><li><a href="./graded-tools/anthropic.html">graded-tools/anthropic</a></li><li><a href="./graded-tools/cedar.html">graded-tools/cedar</a></li><li><a href="./graded-tools/console.html">graded-tools/console</a></li><li><a href="./graded-tools/d1.html">graded-tools/d1</a></li><li><a href="./graded-tools/dbos.html">graded-tools/dbos</a></li><li><a href="./graded-tools/gemini.html">graded-tools/gemini</a></li><li><a href="./graded-tools/langchain.html">graded-tools/langchain</a></li><li><a href="./graded-tools/mastra.html">graded-tools/mastra</a></li><li><a href="./graded-tools/mcp.html">graded-tools/mcp</a></li><li><a href="./graded-tools/mcp-server.html">graded-tools/mcp-server</a></li><li><a href="./graded-tools/notify.html">graded-tools/notify</a></li><li><a href="./graded-tools/openai.html">graded-tools/openai</a></li><li><a href="./graded-tools/openai-agents.html">graded-tools/openai-agents</a></li><li><a href="./graded-tools/opentelemetry.html">graded-tools/opentelemetry</a></li><li><a href="./graded-tools/postgres.html">graded-tools/postgres</a></li><li><a href="./graded-tools/slack.html">graded-tools/slack</a></li><li><a href="./graded-tools/sqlite.html">graded-tools/sqlite</a></li><li><a href="./graded-tools/store.html">graded-tools/store</a></li><li><a href="./graded-tools/testing.html">graded-tools/testing</a></li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("api/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
