import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"开发","description":"","frontmatter":{},"headers":[],"relativePath":"zh-CN/guide/development.md","filePath":"zh-CN/guide/development.md"}');
const _sfc_main = { name: "zh-CN/guide/development.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="开发" tabindex="-1">开发 <a class="header-anchor" href="#开发" aria-label="Permalink to &quot;开发&quot;">​</a></h1><p>在本仓库上开发：<code>npm start</code> 在终端里演示一个客服智能体，<code>npm test</code> 运行类型检查、lint 和全部测试（在全新克隆上两者都会先按 lockfile 安装依赖）。</p><ul><li><code>npm start</code>——客服演示（<code>examples/support-desk.ts</code>）：模型的工具列表与出口、访问报告、一个计划，以及智能体的草稿被提议、由人确认并交还结果。</li><li><code>npm test</code>——类型检查、Biome lint、构建，以及全部 vitest 测试（fast-check 性质测试、类型测试、用 publint 和 are-the-types-wrong 检查构建产物）。</li><li><code>npm run console</code>——在客服示例上运行审批控制台，附带脚本化的智能体（见上文）。</li><li><code>npm run bench</code>——基准测试。</li><li><code>npm pack</code> / <code>npm publish</code> 会先构建（<code>prepack</code> 运行 <code>npm run build</code>），所以打出的包绝不会缺少 <code>dist/</code>。</li><li>测试需要 127.0.0.1:5432 上的 PostgreSQL（数据库 <code>test</code>），以及位于 <code>/usr/bin/chromium</code>（或 <code>CHROMIUM_PATH</code>）的 Debian Chromium，用于控制台的端到端测试（由 playwright-core 驱动，它不会自行下载浏览器）。</li><li>CI 运行 <code>bash .ci/run</code>：缺少 Chromium 时先安装，再按 lockfile 安装、确保 PostgreSQL 已启动、在本机的 Node 20 上运行 <code>npm test</code>，然后在检出的一份副本里用 Node 24（npm 的 <code>node</code> 包，装在 <code>~/.cache/graded-tools-ci</code> 下）重新 <code>npm ci</code> 并再次运行 <code>npm test</code>，并装上 better-sqlite3 13，这样该原生模块会分别按各自 Node 的 ABI 构建。</li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("zh-CN/guide/development.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const development = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  development as default
};
