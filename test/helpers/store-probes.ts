// The adapter-only rule of test/architecture.test.ts: where code reaches a `MemoryStore`'s
// optional methods itself (a call, a `typeof` check, a read) instead of going through the store
// adapter. Found with the type checker, so the name a store is held under does not matter.
import { relative, sep } from "node:path";
import ts from "typescript";

/**
 * A program over just `files`, with the repository's compiler options: their imports are linked
 * only to one another (`noResolve`), and no standard library is loaded, so the check takes a
 * second. A type that comes through a file left out is `any`, never a false finding.
 */
export function programOf(files: string[], tsconfig: string): ts.Program {
  const config = ts.readConfigFile(tsconfig, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, tsconfig.replace(/[\\/][^\\/]*$/, ""));
  return ts.createProgram(files, { ...parsed.options, noEmit: true, noResolve: true, noLib: true, types: [] });
}

/** A program over made-up sources (`path → text`, paths relative to `root`), for proving a check can fail. */
export function virtualProgram(root: string, sources: Record<string, string>): ts.Program {
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noLib: true, // the made-up sources need no standard library, and the check then runs in milliseconds
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const byPath = new Map(Object.entries(sources).map(([path, text]) => [`${root}/${path}`, text]));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    const text = byPath.get(fileName);
    return text === undefined
      ? getSourceFile(fileName, language, ...rest)
      : ts.createSourceFile(fileName, text, language, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => byPath.has(fileName) || fileExists(fileName);
  host.directoryExists = (directory) => [...byPath.keys()].some((path) => path.startsWith(`${directory}/`));
  return ts.createProgram([...byPath.keys()], options, host);
}

/**
 * Every place in the files `checked` selects (paths relative to `root`, forward slashes) that
 * reaches an optional member of the `MemoryStore` interface declared in `memoryStoreFile`:
 * `path:line MemoryStore.method`.
 */
export function optionalStoreAccesses(
  program: ts.Program,
  root: string,
  memoryStoreFile: string,
  checked: (path: string) => boolean,
): string[] {
  const checker = program.getTypeChecker();
  const pathOf = (fileName: string) => relative(root, fileName).split(sep).join("/");
  const isOptionalStoreMember = (symbol: ts.Symbol | undefined) =>
    (symbol?.declarations ?? []).some(
      (declaration) =>
        (ts.isMethodSignature(declaration) || ts.isPropertySignature(declaration)) &&
        declaration.questionToken !== undefined &&
        ts.isInterfaceDeclaration(declaration.parent) &&
        declaration.parent.name.text === "MemoryStore" &&
        pathOf(declaration.getSourceFile().fileName) === memoryStoreFile,
    );
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    const path = pathOf(source.fileName);
    if (source.isDeclarationFile || path.startsWith("..") || !checked(path)) continue;
    const visit = (node: ts.Node) => {
      let member: ts.Node | undefined;
      let symbol: ts.Symbol | undefined;
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        member = ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression;
        symbol = checker.getSymbolAtLocation(member);
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        // `const { appendMessages } = store`
        member = node.propertyName ?? node.name;
        symbol = checker.getTypeAtLocation(node.parent).getProperty(member.getText(source));
      }
      if (member && isOptionalStoreMember(symbol)) {
        const line = source.getLineAndCharacterOfPosition(member.getStart(source)).line + 1;
        found.push(`${path}:${line} MemoryStore.${member.getText(source).replace(/["'`]/g, "")}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
