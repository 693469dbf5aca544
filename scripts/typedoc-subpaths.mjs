// Names each entry point's module after the import a user writes (`graded-tools/sqlite`), not its file.
import { Converter, ParameterType, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.options.addDeclaration({
    name: 'subpathNames',
    help: 'Entry file → the import name users write.',
    type: ParameterType.Mixed,
    defaultValue: {},
  });
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (reflection.kindOf(ReflectionKind.Module) === false) return;
    const names = app.options.getValue('subpathNames');
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile()?.fileName;
    const name = file === undefined ? undefined : names[file];
    if (name !== undefined) reflection.name = name;
  });
}
