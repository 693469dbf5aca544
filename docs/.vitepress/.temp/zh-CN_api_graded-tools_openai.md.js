import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"graded-tools/openai","description":"","frontmatter":{},"headers":[],"relativePath":"zh-CN/api/graded-tools/openai.md","filePath":"zh-CN/api/graded-tools/openai.md"}');
const _sfc_main = { name: "zh-CN/api/graded-tools/openai.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="graded-tools-openai" tabindex="-1">graded-tools/openai <a class="header-anchor" href="#graded-tools-openai" aria-label="Permalink to &quot;graded-tools/openai&quot;">​</a></h1><p>API 参考由 TypeScript 类型生成，只有英文版：<a href="/api/graded-tools/openai.html">graded-tools/openai</a>。</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("zh-CN/api/graded-tools/openai.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const openai = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  openai as default
};
