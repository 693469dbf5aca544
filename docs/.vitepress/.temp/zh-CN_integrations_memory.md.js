import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"内存存储","description":"","frontmatter":{},"headers":[],"relativePath":"zh-CN/integrations/memory.md","filePath":"zh-CN/integrations/memory.md"}');
const _sfc_main = { name: "zh-CN/integrations/memory.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="内存存储" tabindex="-1">内存存储 <a class="header-anchor" href="#内存存储" aria-label="Permalink to &quot;内存存储&quot;">​</a></h1><p><code>graded-tools</code> 中的 <code>createMemoryStore()</code> 是 <code>ToolRegistry</code> 的默认存储：无需安装，确认保存在进程内。适用于测试、演示，以及重启时可以丢失未完成确认的单个进程；其他情况请用 <a href="./sqlite.html">SQLite</a>、<a href="./postgres.html">PostgreSQL</a> 或 <a href="./d1.html">D1</a>。</p><div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki shiki-themes github-light-high-contrast github-dark-high-contrast vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;">import</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;"> { createMemoryStore, ToolRegistry } </span><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;">from</span><span style="--shiki-light:#032563;--shiki-dark:#ADDCFF;"> &#39;graded-tools&#39;</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;">;</span></span>
<span class="line"></span>
<span class="line"><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;">const</span><span style="--shiki-light:#023B95;--shiki-dark:#91CBFF;"> registry</span><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;"> =</span><span style="--shiki-light:#A0111F;--shiki-dark:#FF9492;"> new</span><span style="--shiki-light:#622CBC;--shiki-dark:#DBB7FF;"> ToolRegistry</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;">({ confirmations: </span><span style="--shiki-light:#622CBC;--shiki-dark:#DBB7FF;">createMemoryStore</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;">({ maxRecords: </span><span style="--shiki-light:#023B95;--shiki-dark:#91CBFF;">10_000</span><span style="--shiki-light:#0E1116;--shiki-dark:#F0F3F6;"> }) });</span></span></code></pre></div><p>它最多保留 <code>maxRecords</code> 条（默认 100,000），先丢弃最早结束的确认（常数时间），当每一条都仍未完成时拒绝新的确认（<code>STORE_FAILED</code>），而不是无限增长。它的清理只读取未完成的记录，<code>list</code> 从最新的开始读、读到上限即止。除 <code>watch</code> 以外它具备所有能力（经由注册表所做的变更由注册表自己报告，也没有别的进程共享它），并通过与其他存储相同的契约测试。</p><p>各存储的比较：<a href="./../guide/stores.html">存储</a>。所有选项：<a href="./../../api/graded-tools.html#creatememorystore">API 参考（英文）</a>。</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("zh-CN/integrations/memory.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const memory = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  memory as default
};
