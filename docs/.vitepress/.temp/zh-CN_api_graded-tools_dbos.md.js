import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"graded-tools/dbos","description":"","frontmatter":{},"headers":[],"relativePath":"zh-CN/api/graded-tools/dbos.md","filePath":"zh-CN/api/graded-tools/dbos.md"}');
const _sfc_main = { name: "zh-CN/api/graded-tools/dbos.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="graded-tools-dbos" tabindex="-1">graded-tools/dbos <a class="header-anchor" href="#graded-tools-dbos" aria-label="Permalink to &quot;graded-tools/dbos&quot;">​</a></h1><p>API 参考由 TypeScript 类型生成，只有英文版：<a href="/api/graded-tools/dbos.html">graded-tools/dbos</a>。</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("zh-CN/api/graded-tools/dbos.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const dbos = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  dbos as default
};
