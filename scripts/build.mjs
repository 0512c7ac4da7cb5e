// Build: one CommonJS bundle per entry (so `require('switchyard')` is the fw
// function itself, like `require('express')`), a thin ESM wrapper over it (one
// copy of the code, no dual-package hazard) and declaration files for both
// resolution modes:
//   dist/types/*.d.ts        the public types, emitted by tsc from src/types/
//   dist/<entry>.d.cts       `export =` declarations (the CJS module.exports is a function)
//   dist/<entry>.d.mts       `export default` + named exports for the ESM wrapper
import { build } from 'tsup'
import ts from 'typescript'
import { createRequire } from 'node:module'
import { copyFileSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'

const entries = { index: 'src/index.ts', 'body-parser': 'src/body/index.ts' }
rmSync('dist', { recursive: true, force: true })

await build({
  entry: entries,
  format: ['cjs'],
  target: 'node20',
  platform: 'node',
  dts: false,
  sourcemap: false,
  // keep every function's source name (stack traces, layer.name, tools that read the stack)
  keepNames: true,
  clean: false,
  silent: true,
  outExtension: () => ({ js: '.cjs' }),
  // the entry's default export becomes module.exports itself
  footer: { js: 'module.exports = module.exports.default;' }
})

// keepNames makes esbuild give every function and class its source name with
// `Object.defineProperty(fn, 'name', ...)`. V8 turns a function whose `name`
// is redefined into a slow dictionary-mode object, and every property read
// from it becomes a hash lookup: the app function and the routers are read on
// every request (app.handle, router.stack, router.mergeParams...). Most
// functions already carry their source name; for those the helper now leaves
// `name` alone, so they keep fast properties. A function whose name differs
// (renamed by the bundler, or anonymous) still gets it defined, as before.
// docs/design.md, Speed, item 25.
const NAME_HELPER = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });'
const NAME_HELPER_FAST = 'var __name = (target, value) => target.name === value ? target : __defProp(target, "name", { value, configurable: true });'
for (const name of Object.keys(entries)) {
  const file = `dist/${name}.cjs`
  const text = readFileSync(file, 'utf8')
  const at = text.indexOf(NAME_HELPER)
  if (at === -1 || text.indexOf(NAME_HELPER, at + 1) !== -1) throw new Error(`${file}: esbuild's __name helper is not the one scripts/build.mjs expects`)
  writeFileSync(file, text.replace(NAME_HELPER, NAME_HELPER_FAST))
}

const require = createRequire(import.meta.url)
for (const name of Object.keys(entries)) {
  const mod = require(`../dist/${name}.cjs`)
  const names = Object.keys(mod).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k))
  const lines = [`import fw from './${name}.cjs'`, 'export default fw']
  for (const k of names) lines.push(`const _${k} = fw.${k}`, `export { _${k} as ${k} }`)
  writeFileSync(`dist/${name}.mjs`, lines.join('\n') + '\n')
}

const CORE = 'express-serve-static-core.d.ts'

/** Emit the declarations of the types entry with tsc; return the names it exports. */
function emitTypes(entry, outDir) {
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    removeComments: false,
    rootDir: 'src/types',
    outDir
  }
  const program = ts.createProgram([entry], options)
  const diagnostics = ts.getPreEmitDiagnostics(program)
  const result = program.emit()
  const all = [...diagnostics, ...result.diagnostics]
  if (all.length) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => '\n' }
    throw new Error('type declarations failed:\n' + ts.formatDiagnostics(all, host))
  }
  // `export =` modules re-export types through `export import X = T.X`, which TS
  // refuses for names re-exported with `export type`: in a declaration file the
  // plain form means the same thing.
  const index = `${outDir}/index.d.ts`
  writeFileSync(index, readFileSync(index, 'utf8').replace(/^export type \{/gm, 'export {'))
  // The ambient `express-serve-static-core` module (a hand-written script, which tsc
  // does not emit): copied as is and referenced from every file that imports it.
  copyFileSync(`src/types/${CORE}`, `${outDir}/${CORE}`)
  for (const f of readdirSync(outDir)) {
    if (!f.endsWith('.d.ts') || f === CORE) continue
    const text = readFileSync(`${outDir}/${f}`, 'utf8')
    if (f === 'index.d.ts' || text.includes("'express-serve-static-core'")) {
      writeFileSync(`${outDir}/${f}`, `/// <reference path="./${CORE}" />\n` + text)
    }
  }
  const checker = program.getTypeChecker()
  const file = program.getSourceFile(entry)
  return checker.getExportsOfModule(checker.getSymbolAtLocation(file)).map((s) => s.name).sort()
}

// Names that are both a runtime value (a property of fw) and a type.
// `Router` is an interface declared in the entry itself, and `fw.Router()`
// returns it: a declaration file emitted for code that infers a router
// (`export default Router()`, with `declaration: true`) can then name it as
// `fw.Router<false>`; the type in ./types cannot be named from outside the
// package (its "exports" map hides the path), which gave TS2742.
const ROUTER_CALLS = `{
    (options: T.RouterOptions & { mergeParams: true }): Router<true>
    (options?: T.RouterOptions): Router
    new (options: T.RouterOptions & { mergeParams: true }): Router<true>
    new (options?: T.RouterOptions): Router
    /** The route class, as router@2 exposes it (\`req.route instanceof Router.Route\`). */
    Route: T.RouteConstructor
  }`
const VALUE_TYPES = {
  Router: 'export interface Router<Merge extends boolean = false> extends T.Router<Merge> {}',
  Route: 'export type Route<Path extends string = string> = T.IRoute<Path>'
}
/** The same names in the ES module declaration, which takes them from the CommonJS one. */
const VALUE_TYPES_MTS = {
  Router: 'export type Router<Merge extends boolean = false> = fw.Router<Merge>',
  Route: VALUE_TYPES.Route
}
const VALUES = ['Router', 'Route', 'json', 'raw', 'text', 'urlencoded', 'static', 'application', 'request', 'response']
const BODY_VALUES = ['json', 'raw', 'text', 'urlencoded']
const HEADER = '// Generated by scripts/build.mjs: the public types live in ./types (from src/types).\n'

function indexCts(typeNames) {
  const aliases = typeNames.filter((n) => !(n in VALUE_TYPES)).map((n) => `  export import ${n} = T.${n}`)
  return `${HEADER}import * as T from './types/index.js'

/** Create an application. */
declare function fw(): T.Express
declare namespace fw {
${VALUES.map((v) => (v === 'Router' ? `  var Router: ${ROUTER_CALLS}` : `  var ${v}: T.Switchyard['${v}']`)).join('\n')}
${Object.values(VALUE_TYPES).map((l) => '  ' + l).join('\n')}
${aliases.join('\n')}
}
export = fw
`
}

function indexMts() {
  // The default export is the CommonJS declaration's \`fw\` (a function merged with a
  // namespace of types), so \`import express from 'switchyard'\` then \`express.Request\`
  // works as a type in ES modules as it does in CommonJS; it is the same object at
  // run time. \`static\` is reserved in module code, so the named export is declared
  // under another name and renamed.
  const values = VALUES.map((v) =>
    v === 'static'
      ? `declare const _static: T.Switchyard['static']\nexport { _static as static }`
      : v === 'Router'
        ? 'export declare const Router: typeof fw.Router'
        : `export declare const ${v}: T.Switchyard['${v}']`
  )
  return `${HEADER}import fw from './index.cjs'
import type * as T from './types/index.js'

/** Create an application; carries Router, json, static and the other exports. */
export default fw
${values.join('\n')}
${Object.values(VALUE_TYPES_MTS).join('\n')}
export type * from './types/index.js'
`
}

function bodyParserCts() {
  return `${HEADER}import * as T from './types/index.js'

/** @deprecated body-parser 2 removed the generic parser: calling it throws. */
declare function bodyParser(options?: unknown): never
declare namespace bodyParser {
${BODY_VALUES.map((v) => `  var ${v}: T.BodyParser['${v}']`).join('\n')}
${['BodyParser', 'BodyParserError', 'BodyParserErrorType', 'BodyParserMiddleware', 'Options', 'OptionsJson', 'OptionsRaw', 'OptionsText', 'OptionsUrlencoded', 'VerifyFunction'].map((n) => `  export import ${n} = T.${n}`).join('\n')}
}
export = bodyParser
`
}

function bodyParserMts() {
  // as for the main entry: the default export keeps its namespace of types
  return `${HEADER}import bodyParser from './body-parser.cjs'
import type * as T from './types/index.js'

/** The body-parser module: the (throwing) generic parser carrying json, raw, text and urlencoded. */
export default bodyParser
${BODY_VALUES.map((v) => `export declare const ${v}: T.BodyParser['${v}']`).join('\n')}
export type {
  BodyParser,
  BodyParserError,
  BodyParserErrorType,
  BodyParserMiddleware,
  Options,
  OptionsJson,
  OptionsRaw,
  OptionsText,
  OptionsUrlencoded,
  VerifyFunction
} from './types/index.js'
`
}

const typeNames = emitTypes('src/types/index.ts', 'dist/types')
writeFileSync('dist/index.d.cts', indexCts(typeNames))
writeFileSync('dist/index.d.mts', indexMts())
writeFileSync('dist/body-parser.d.cts', bodyParserCts())
writeFileSync('dist/body-parser.d.mts', bodyParserMts())
