import type { Locale } from '../../messages/index.js';
import type { InvokeContext, ToolRegistry } from '../../registry.js';

/** The language of adapter-made messages: the call's own, else the registry's. */
export function replyLocale<C>(registry: ToolRegistry<C>, ctx: InvokeContext<C>): Locale {
  return ctx.locale ?? registry.locale;
}
