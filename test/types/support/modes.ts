// Compile the typed corpus of test/types/compat in one TypeScript program per
// module mode, against the BUILT package, with or without @types/express visible,
// or against @types/express itself (the oracle).
//
// Each program lives in a virtual project: `<repo>/test/types/.virtual/<name>/`
// with its own package.json (`"type"` per mode), the corpus files under `src/`,
// and `node_modules/switchyardjs` mapped onto this repository (package.json + dist),
// as if installed. Everything else resolves from the repository's node_modules,
// except that the "without" variant hides @types/express and
// @types/express-serve-static-core, and the oracle rewrites the imports
// ('switchyardjs' -> 'express', 'switchyardjs/body-parser' -> 'body-parser').
import path from 'node:path'
import fs from 'node:fs'
import ts from 'typescript'

export const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..')
export const compatDir = path.join(repo, 'test/types/compat')

export type Mode = 'cjs' | 'mts' | 'type-module' | 'bundler' | 'node10' | 'cjs-no-interop' | 'node10-no-interop' | 'verbatim'
export type Target = 'switchyard' | 'switchyard+@types/express' | 'switchyard+@types/express@4' | '@types/express'

/** @types/express@4, installed under an npm alias (`@types/express-v4`); programs reach it as 'express'. */
const EXPRESS_V4 = path.join(repo, 'node_modules/@types/express-v4/index.d.ts')

export const MODES: Record<Mode, { options: ts.CompilerOptions; type: 'module' | 'commonjs'; ext: string; esm: boolean; interop?: false }> = {
  // .ts files in a "type": "commonjs" package, node16+ resolution (require conditions)
  cjs: { options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }, type: 'commonjs', ext: '.ts', esm: false },
  // .mts files: ES modules whatever the package type (import conditions)
  mts: { options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }, type: 'commonjs', ext: '.mts', esm: true },
  // .ts files in a "type": "module" package
  'type-module': { options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }, type: 'module', ext: '.ts', esm: true },
  // bundler resolution (Vite, esbuild, webpack projects): import conditions, no extensions needed
  bundler: { options: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }, type: 'commonjs', ext: '.ts', esm: true },
  // the legacy resolver: "types"/"main" fields, no "exports"
  node10: { options: { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }, type: 'commonjs', ext: '.ts', esm: false },
  // CommonJS without esModuleInterop (nor allowSyntheticDefaultImports): no
  // default imports of CommonJS packages, so only the `cjs-*` and
  // `nointerop-*` programs (`import = require`, `import * as`)
  'cjs-no-interop': { options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, esModuleInterop: false }, type: 'commonjs', ext: '.ts', esm: false, interop: false },
  'node10-no-interop': { options: { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, esModuleInterop: false }, type: 'commonjs', ext: '.ts', esm: false, interop: false },
  // "type": "module" with verbatimModuleSyntax (imports kept as written)
  verbatim: { options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, verbatimModuleSyntax: true }, type: 'module', ext: '.ts', esm: true }
}

/**
 * Corpus files for a mode: shared programs, plus `esm-*` (ES module syntax) or
 * `cjs-*` (`import = require`, `export =`) ones. Without esModuleInterop, the
 * `cjs-*` and `nointerop-*` (`import * as`) programs only: the shared ones
 * use default imports, which need it.
 */
export function corpusFiles(mode: Mode): string[] {
  const { esm, interop } = MODES[mode]
  return fs
    .readdirSync(compatDir)
    .filter((f) => f.endsWith('.ts'))
    .filter((f) => {
      if (interop === false) return f.startsWith('cjs-') || f.startsWith('nointerop-')
      return f.startsWith('esm-') ? esm : f.startsWith('cjs-') ? !esm : f.startsWith('nointerop-') ? false : true
    })
    .sort()
}

const parsed = new Map<string, ts.SourceFile>()
const HIDDEN_TYPES = ['/node_modules/@types/express/', '/node_modules/@types/express-serve-static-core/']

export interface Compiled {
  program: ts.Program
  /** virtual corpus file name -> original file name in test/types/compat */
  files: Map<string, string>
  /** diagnostics of the corpus files, the switchyard declarations and (when present) @types/express */
  diagnostics: ts.Diagnostic[]
}

export function compileCorpus(mode: Mode, target: Target, extraFiles: Record<string, string> = {}, extraOptions: ts.CompilerOptions = {}): Compiled {
  const spec = MODES[mode]
  const vroot = path.join(repo, 'test/types/.virtual', `${mode}--${target.replace(/[^a-z]+/g, '-')}`)
  const vmod = path.join(vroot, 'node_modules/switchyardjs')
  const oracle = target === '@types/express'
  const hide = target === 'switchyard'
  const sources = new Map<string, string>()
  const files = new Map<string, string>()
  sources.set(path.join(vroot, 'package.json'), JSON.stringify({ name: 'app', private: true, type: spec.type }))
  for (const f of corpusFiles(mode)) {
    const original = path.join(compatDir, f)
    const virtual = path.join(vroot, 'src', f.replace(/\.ts$/, spec.ext))
    let text = fs.readFileSync(original, 'utf8')
    if (oracle) text = text.replace(/(['"])switchyardjs\/body-parser\1/g, "'body-parser'").replace(/(['"])switchyardjs\1/g, "'express'")
    sources.set(virtual, text)
    files.set(virtual, original)
  }
  for (const [name, text] of Object.entries(extraFiles)) {
    const virtual = path.join(vroot, 'src', name.replace(/\.ts$/, spec.ext))
    sources.set(virtual, text)
    files.set(virtual, name)
  }

  /** Map a virtual path to a real one (undefined: does not exist). */
  const real = (p: string): string | undefined => {
    if (!oracle && (p === vmod || p.startsWith(vmod + '/'))) {
      const rest = p.slice(vmod.length)
      // what the published package holds (package.json "files")
      if (rest === '' || rest === '/package.json' || rest === '/dist' || rest.startsWith('/dist/')) return repo + rest
      if (rest === '/body-parser' || rest === '/body-parser/package.json') return repo + rest
      return undefined
    }
    if (p.startsWith(vroot)) return undefined
    if (hide && HIDDEN_TYPES.some((h) => (p + '/').includes(h))) return undefined
    return p
  }
  const isVirtualDir = (p: string) => [...sources.keys()].some((f) => f.startsWith(p + '/')) || (!oracle && (p === path.join(vroot, 'node_modules') || p === vmod))

  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: target === 'switchyard+@types/express' ? ['node', 'express'] : ['node'],
    strict: true,
    esModuleInterop: true,
    skipLibCheck: false,
    noEmit: true,
    noUnusedLocals: false,
    // 'express' is Express 4's types for the @types/express@4 target
    ...(target === 'switchyard+@types/express@4' ? { paths: { express: [EXPRESS_V4] } } : {}),
    ...spec.options,
    ...extraOptions
  }
  const host = ts.createCompilerHost(options)
  const base = { ...host }
  host.fileExists = (p) => sources.has(p) || (real(p) !== undefined && base.fileExists(real(p)!))
  host.directoryExists = (p) => isVirtualDir(p) || (real(p) !== undefined && base.directoryExists!(real(p)!))
  host.readFile = (p) => sources.get(p) ?? (real(p) !== undefined ? base.readFile(real(p)!) : undefined)
  host.realpath = (p) => (sources.has(p) ? p : real(p) !== undefined ? (base.realpath ? base.realpath(real(p)!) : real(p)!) : p)
  host.getDirectories = (p) => (real(p) !== undefined && base.directoryExists!(real(p)!) ? base.getDirectories!(real(p)!) : [])
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const text = host.readFile(fileName)
    if (text === undefined) return undefined
    const format = typeof languageVersion === 'object' ? languageVersion.impliedNodeFormat ?? 0 : 0
    const virtual = sources.has(fileName)
    const key = `${format}\0${fileName}`
    if (!virtual && parsed.has(key)) return parsed.get(key)
    const file = ts.createSourceFile(fileName, text, languageVersion, true)
    if (!virtual) parsed.set(key, file)
    return file
  }
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host })
  const checked = program
    .getSourceFiles()
    .filter(
      (f) =>
        files.has(f.fileName) ||
        f.fileName.startsWith(path.join(repo, 'dist') + '/') ||
        /\/node_modules\/@types\/express(-v4)?\//.test(f.fileName)
    )
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])
  ]
  return { program, files, diagnostics }
}

export function format(diagnostics: readonly ts.Diagnostic[], files?: Map<string, string>): string {
  return diagnostics
    .map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
      if (!d.file) return `TS${d.code}: ${message}`
      const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0)
      const name = files?.get(d.file.fileName) ?? d.file.fileName
      return `${path.relative(repo, name)}:${line + 1} TS${d.code}: ${message}`
    })
    .join('\n')
}

/** Lines (1-based) of a corpus file marked `// @types/express differs: <reason>`. */
export function markedLines(text: string): number[] {
  return text.split('\n').flatMap((l, i) => (/\/\/ @types\/express differs: \S/.test(l) ? [i + 1] : []))
}
