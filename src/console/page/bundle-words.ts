// The words of a bundle's card, in English and Chinese: a bundle is one decision over several steps.
import type { Card } from './api.js';

export interface BundleWords {
  readonly heading: (n: number) => string;
  readonly stepOf: (i: number, n: number, title: string) => string;
  readonly approveAll: (n: number) => string;
  readonly rejectAll: string;
  readonly inOrder: string;
  readonly statuses: Readonly<Record<NonNullable<Card['bundleCard']>['status'], string>>;
  readonly done: Readonly<Record<NonNullable<Card['bundleCard']>['status'], string>>;
  readonly bundleDigest: string;
  readonly steps: string;
  /** An approved step behind one not delivered yet. */
  readonly waitingFor: (i: number) => string;
}

const en: BundleWords = {
  heading: (n) => `${n} steps, in order`,
  stepOf: (i, n, title) => `Step ${i} of ${n}: ${title}`,
  approveAll: (n) => (n === 1 ? 'Approve the 1 step' : `Approve all ${n} steps`),
  rejectAll: 'Reject all',
  inOrder:
    'One decision for every step. Each goes out only after the one before it; if one is rejected, expires or fails, the steps after it are stopped.',
  statuses: {
    pending: 'Pending',
    delivering: 'Going out in order',
    delivered: 'All delivered',
    stopped: 'Stopped',
    unknown: 'Outcome unknown',
  },
  done: {
    pending: 'Your approval is recorded; some steps still need other approvers.',
    delivering: 'Approved: the steps go out in order.',
    delivered: 'Approved: every step went out, in order.',
    stopped: 'Stopped: a step did not go out, so the steps after it were stopped.',
    unknown: 'A step’s outcome is unknown: the steps after it wait for a person.',
  },
  bundleDigest: 'Bundle digest (SHA-256 of every step’s digest, in order)',
  steps: 'Steps',
  waitingFor: (i) => `Approved — waits for step ${i}`,
};

const zhCN: BundleWords = {
  heading: (n) => `按顺序共 ${n} 步`,
  stepOf: (i, n, title) => `第 ${i}/${n} 步：${title}`,
  approveAll: (n) => `全部批准（共 ${n} 步）`,
  rejectAll: '全部拒绝',
  inOrder: '一次决定覆盖每一步。每一步只在前一步完成后执行；若某一步被拒绝、过期或失败，其后的步骤都会停止。',
  statuses: {
    pending: '待确认',
    delivering: '正在按顺序执行',
    delivered: '全部完成',
    stopped: '已停止',
    unknown: '结果未知',
  },
  done: {
    pending: '你的批准已记录；部分步骤还需要其他审批人。',
    delivering: '已批准：各步骤将按顺序执行。',
    delivered: '已批准：每一步都已按顺序完成。',
    stopped: '已停止：某一步没有完成，其后的步骤随之停止。',
    unknown: '某一步的结果未知：其后的步骤等待有人处理。',
  },
  bundleDigest: '捆绑摘要（按顺序对每一步摘要计算的 SHA-256）',
  steps: '步骤',
  waitingFor: (i) => `已批准，等待第 ${i} 步`,
};

export function bundleWords(lang: string): BundleWords {
  return lang === 'zh-CN' ? zhCN : en;
}
