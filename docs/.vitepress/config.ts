import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DefaultTheme, defineConfig } from 'vitepress';

// The API reference is generated from the types by TypeDoc (`npm run docs:api`) into docs/api, with its
// sidebar: one entry per import path (`graded-tools`, `graded-tools/sqlite`, …).
const apiSidebarFile = join(import.meta.dirname, '..', 'api', 'typedoc-sidebar.json');
// Not collapsible: a collapsible group's header is a button holding a link (axe: nested-interactive).
const withoutCollapse = (items: DefaultTheme.SidebarItem[]): DefaultTheme.SidebarItem[] =>
  items.map(({ collapsed: _, items: children, ...item }) =>
    children === undefined || children.length === 0 ? item : { ...item, items: withoutCollapse(children) },
  );
const apiSidebar = (): DefaultTheme.SidebarItem[] => {
  if (!existsSync(apiSidebarFile)) return [];
  const [root, ...rest] = JSON.parse(readFileSync(apiSidebarFile, 'utf8')) as DefaultTheme.SidebarItem[];
  if (root === undefined) return withoutCollapse(rest);
  const subpaths = (root.items ?? []).map((item) => ({ ...item, text: `graded-tools/${item.text}` }));
  return withoutCollapse([
    { text: 'Import paths', items: [{ text: 'graded-tools', link: root.link ?? '/api/' }, ...subpaths] },
    ...rest,
  ]);
};

type Words = {
  guide: string;
  confirming: string;
  approvers: string;
  integrations: string;
  providers: string;
  frameworks: string;
  stores: string;
  more: string;
  items: Record<string, string>;
};

const en: Words = {
  guide: 'Guide',
  confirming: 'Confirming sends',
  approvers: 'Approvers',
  integrations: 'Integrations',
  providers: 'Model providers',
  frameworks: 'Agent frameworks',
  stores: 'Stores',
  more: 'More',
  items: {
    'guide/getting-started': 'Getting started',
    'guide/concepts': 'Concepts',
    'guide/registry': 'Tools, the registry and plans',
    'guide/rules': 'Rules',
    'guide/agent-runs': 'Agent runs and origins',
    'guide/confirming': 'Confirming sends',
    'guide/bundles': 'Bundles',
    'guide/durable-runs': 'Durable runs',
    'guide/stores': 'Stores',
    'guide/audit': 'Audit log',
    'guide/passkeys': 'Approvals you can prove',
    'guide/console': 'The approvals console',
    'guide/console-api': "The console's JSON API",
    'guide/notify': 'Telling approvers',
    'guide/deploying': 'Deploying',
    'guide/deploying-workers': 'Deploying on Workers',
    'guide/runtimes': 'Runtimes',
    'integrations/': 'Overview',
    'integrations/openai': 'OpenAI',
    'integrations/anthropic': 'Anthropic',
    'integrations/gemini': 'Gemini',
    'integrations/ai-sdk': 'Vercel AI SDK',
    'integrations/mcp': 'MCP (SDK v1)',
    'integrations/mcp-server': 'MCP (SDK v2)',
    'integrations/openai-agents': 'OpenAI Agents SDK',
    'integrations/langchain': 'LangChain.js',
    'integrations/mastra': 'Mastra',
    'integrations/console': 'console',
    'integrations/notify': 'notify',
    'integrations/slack': 'Slack',
    'integrations/teams': 'Microsoft Teams',
    'integrations/cedar': 'Cedar',
    'integrations/opentelemetry': 'OpenTelemetry',
    'integrations/dbos': 'DBOS',
    'integrations/cli': 'CLI',
    'integrations/memory': 'Memory',
    'integrations/sqlite': 'SQLite',
    'integrations/postgres': 'PostgreSQL',
    'integrations/d1': 'Cloudflare D1',
    benchmarks: 'Benchmarks',
    agentdojo: 'AgentDojo',
    'guide/development': 'Development',
  },
};

const zh: Words = {
  guide: '指南',
  confirming: '确认发送',
  approvers: '审批人',
  integrations: '集成',
  providers: '模型提供方',
  frameworks: '智能体框架',
  stores: '存储',
  more: '更多',
  items: {
    ...en.items,
    'guide/getting-started': '入门',
    'guide/concepts': '概念',
    'guide/registry': '工具、注册表与计划',
    'guide/rules': '规则',
    'guide/agent-runs': '智能体运行与来源',
    'guide/confirming': '确认发送',
    'guide/bundles': '捆绑',
    'guide/durable-runs': '持久运行',
    'guide/stores': '存储',
    'guide/audit': '审计日志',
    'guide/passkeys': '可证明的批准',
    'guide/console': '审批控制台',
    'guide/console-api': '控制台的 JSON API',
    'guide/notify': '通知审批人',
    'guide/deploying': '部署',
    'guide/deploying-workers': '在 Workers 上部署',
    'guide/runtimes': '运行时',
    'integrations/': '概览',
    'integrations/memory': '内存',
    benchmarks: '基准测试',
    'guide/development': '开发',
  },
};

const sidebar = (prefix: string, words: Words, apiText: string): DefaultTheme.SidebarItem[] => {
  const item = (page: string) => ({ text: words.items[page] ?? page, link: `${prefix}${page}` });
  return [
    {
      text: words.guide,
      items: ['guide/getting-started', 'guide/concepts', 'guide/registry', 'guide/rules', 'guide/agent-runs'].map(
        item,
      ),
    },
    {
      text: words.confirming,
      items: [
        'guide/confirming',
        'guide/bundles',
        'guide/durable-runs',
        'guide/stores',
        'guide/audit',
        'guide/passkeys',
      ].map(item),
    },
    { text: words.approvers, items: ['guide/console', 'guide/console-api', 'guide/notify'].map(item) },
    { text: words.more, items: [
        'guide/deploying',
        'guide/deploying-workers',
        'guide/runtimes',
        'benchmarks',
        'agentdojo',
        'guide/development',
      ].map(item) },
    {
      text: words.providers,
      items: [
        'integrations/',
        'integrations/openai',
        'integrations/anthropic',
        'integrations/gemini',
        'integrations/ai-sdk',
        'integrations/mcp',
        'integrations/mcp-server',
      ].map(item),
    },
    {
      text: words.frameworks,
      items: ['integrations/openai-agents', 'integrations/langchain', 'integrations/mastra'].map(item),
    },
    {
      text: words.stores,
      items: ['integrations/memory', 'integrations/sqlite', 'integrations/postgres', 'integrations/d1'].map(item),
    },
    {
      text: words.integrations,
      items: [
        'integrations/console',
        'integrations/notify',
        'integrations/slack',
        'integrations/teams',
        'integrations/cedar',
        'integrations/opentelemetry',
        'integrations/dbos',
        'integrations/cli',
      ].map(item),
    },
    { text: apiText, link: '/api/' },
  ];
};

export default defineConfig({
  title: 'graded-tools',
  description:
    "Hand an app's capabilities to an LLM agent by side-effect grade: the model reads, plans write, and only a person's confirmation sends.",
  // The README and the generated API reference's own index are not pages of the site's guide.
  srcExclude: ['README.md'],
  lastUpdated: false,
  cleanUrls: false,
  // High-contrast code colours: github-light's comments and punctuation fall under 4.5:1 (axe: color-contrast).
  markdown: {
    theme: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
    // A line break inside a Chinese sentence is not a space: join the lines (as a CJK reader expects).
    config: (md) => {
      const cjk = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
      // Between a Chinese character and a Latin word or code, the space stays.
      const latin = /[A-Za-z0-9]/;
      md.core.ruler.push('cjk-line-breaks', (state) => {
        for (const block of state.tokens) {
          const inline = block.children ?? [];
          inline.forEach((token, i) => {
            const before = inline[i - 1]?.content.at(-1) ?? '';
            const after = inline[i + 1]?.content.at(0) ?? '';
            const joins = (cjk.test(before) && !latin.test(after)) || (cjk.test(after) && !latin.test(before));
            if (token.type === 'softbreak' && joins) {
              token.type = 'text';
              token.content = '';
            }
          });
        }
      });
    },
  },
  locales: {
    root: {
      label: 'English',
      lang: 'en',
      themeConfig: {
        nav: [
          { text: 'Guide', link: '/guide/getting-started' },
          { text: 'Integrations', link: '/integrations/' },
          { text: 'API', link: '/api/' },
        ],
        sidebar: {
          '/api/': [{ text: 'Guide', link: '/guide/getting-started' }, ...apiSidebar()],
          '/': sidebar('/', en, 'API reference'),
        },
      },
    },
    'zh-CN': {
      label: '中文',
      lang: 'zh-CN',
      link: '/zh-CN/',
      themeConfig: {
        nav: [
          { text: '指南', link: '/zh-CN/guide/getting-started' },
          { text: '集成', link: '/zh-CN/integrations/' },
          { text: 'API', link: '/api/' },
        ],
        sidebar: { '/zh-CN/': sidebar('/zh-CN/', zh, 'API 参考（英文）') },
        outline: { label: '本页内容' },
        docFooter: { prev: '上一页', next: '下一页' },
        darkModeSwitchLabel: '外观',
        sidebarMenuLabel: '菜单',
        returnToTopLabel: '回到顶部',
        langMenuLabel: '切换语言',
      },
    },
  },
  themeConfig: {
    search: {
      provider: 'local',
      options: {
        // A guide page explains; the API reference lists. For the same words, the explanation comes first.
        miniSearch: {
          searchOptions: {
            boostDocument: (id: string) => (id.startsWith('/api/') || id.startsWith('/zh-CN/api/') ? 0.1 : 1),
          },
        },
        locales: {
          'zh-CN': {
            translations: {
              button: { buttonText: '搜索', buttonAriaLabel: '搜索' },
              modal: {
                noResultsText: '没有结果',
                resetButtonTitle: '清除',
                footer: { selectText: '选择', navigateText: '切换', closeText: '关闭' },
              },
            },
          },
        },
      },
    },
    outline: { level: [2, 3] },
  },
});
