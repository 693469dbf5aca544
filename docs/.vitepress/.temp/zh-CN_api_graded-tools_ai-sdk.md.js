import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"graded-tools/ai-sdk","description":"","frontmatter":{},"headers":[],"relativePath":"zh-CN/api/graded-tools/ai-sdk.md","filePath":"zh-CN/api/graded-tools/ai-sdk.md"}');
const _sfc_main = { name: "zh-CN/api/graded-tools/ai-sdk.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="graded-tools-ai-sdk" tabindex="-1">graded-tools/ai-sdk <a class="header-anchor" href="#graded-tools-ai-sdk" aria-label="Permalink to &quot;graded-tools/ai-sdk&quot;">​</a></h1><p>API 参考由 TypeScript 类型生成，只有英文版：<a href="/api/graded-tools/ai-sdk.html">graded-tools/ai-sdk</a>。</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("zh-CN/api/graded-tools/ai-sdk.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const aiSdk = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  aiSdk as default
};
