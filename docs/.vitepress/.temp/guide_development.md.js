import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Development","description":"","frontmatter":{},"headers":[],"relativePath":"guide/development.md","filePath":"guide/development.md"}');
const _sfc_main = { name: "guide/development.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="development" tabindex="-1">Development <a class="header-anchor" href="#development" aria-label="Permalink to &quot;Development&quot;">​</a></h1><p>To work on this repository: <code>npm start</code> runs a terminal walkthrough of a support-desk agent, and <code>npm test</code> runs the type check, the linter and every test (both install from the lockfile on a fresh clone).</p><ul><li><code>npm start</code> — the support-desk walkthrough (<code>examples/support-desk.ts</code>): the model&#39;s list and exit, an access report, a plan, and the agent&#39;s draft proposed, confirmed by a person and handed back.</li><li><code>npm test</code> — type check, Biome lint, build, and the whole vitest suite (property tests with fast-check, type tests, built-package checks with publint and are-the-types-wrong).</li><li><code>npm run console</code> — the approvals console on the support desk, with a scripted agent (see above).</li><li><code>npm run bench</code> — the benchmark.</li><li><code>npm pack</code> / <code>npm publish</code> build first (<code>prepack</code> runs <code>npm run build</code>), so a package is never packed without its <code>dist/</code>.</li><li>The tests need PostgreSQL on 127.0.0.1:5432 (database <code>test</code>) and Debian&#39;s Chromium at <code>/usr/bin/chromium</code> (or <code>CHROMIUM_PATH</code>) for the console&#39;s end-to-end tests, driven by playwright-core, which downloads no browser of its own.</li><li>CI runs <code>bash .ci/run</code>: installs Chromium if it is missing, installs from the lockfile, makes sure PostgreSQL is up, runs <code>npm test</code> on the machine&#39;s Node 20, then runs <code>npm test</code> again on Node 24 (the npm <code>node</code> package, installed under <code>~/.cache/graded-tools-ci</code>) in a copy of the checkout with its own <code>npm ci</code> and better-sqlite3 13, so the addon is built for each Node&#39;s ABI.</li></ul></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("guide/development.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const development = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  development as default
};
