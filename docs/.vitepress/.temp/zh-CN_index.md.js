import { ssrRenderAttrs, ssrRenderAttr } from "vue/server-renderer";
import { _ as _imports_0 } from "./console.BjvtOotQ.js";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"graded-tools","description":"","frontmatter":{"aside":false},"headers":[],"relativePath":"zh-CN/index.md","filePath":"zh-CN/index.md"}');
const _sfc_main = { name: "zh-CN/index.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="graded-tools" tabindex="-1">graded-tools <a class="header-anchor" href="#graded-tools" aria-label="Permalink to &quot;graded-tools&quot;">​</a></h1><p>按<strong>副作用等级</strong>把应用的能力交给 LLM 智能体：模型只能读，固定计划可以写，只有人确认后才会发送。</p><ul><li><strong>幻觉或注入的调用永远发不出去。</strong> 模型只能看到 read 工具。调用任何其他东西——write、send、它编造的名字——得到的回答与不存在的工具完全相同，什么都不会运行。智能体的草稿只会成为一份<em>提议</em>；智能体从不握有发送能力。</li><li><strong>人看到的就是发出去的。</strong> 提议带着智能体给出的理由、链接，以及“确认后会发生什么”，一直等到有人确认他所看到的那份确切内容——由摘要绑定，恰好投递一次，即使存在连击、重试和多个应用实例。</li><li><strong>智能体会得知结果。</strong> “已于……发送”“有人拒绝了它：<em>理由</em>”或“已过期”会交还给发起它的那次运行，供它下一轮使用。</li></ul><p><img${ssrRenderAttr("src", _imports_0)} alt="审批控制台的收件箱：待发送的内容，每条都写明确认后会发生什么、由谁发起、何时过期"></p><p>上图是 <code>graded-tools/console</code>，挂载在你的应用里、位于你自己的登录之后：见<a href="./guide/console.html">审批控制台</a>。</p><h2 id="从哪里开始" tabindex="-1">从哪里开始 <a class="header-anchor" href="#从哪里开始" aria-label="Permalink to &quot;从哪里开始&quot;">​</a></h2><ul><li><a href="./guide/getting-started.html">入门</a>：安装、快速上手，以及从智能体的草稿到人的决定的闭环。</li><li><a href="./guide/concepts.html">概念</a>：等级、闸门、模型出口、线上名称、计划、确认。</li><li><a href="./integrations/">集成</a>：OpenAI、Anthropic、Gemini、Vercel AI SDK、MCP、OpenAI Agents、LangChain 与 Mastra；内存、SQLite、PostgreSQL 与 Cloudflare D1 存储。</li><li><a href="./guide/runtimes.html">运行时</a>：Node、Bun、Deno 与 Cloudflare Workers，以及各自用什么测试。</li><li><a href="/api/">API 参考（英文）</a>：每个导出，由类型生成。</li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("zh-CN/index.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const index = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  index as default
};
