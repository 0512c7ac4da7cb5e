// Compiles the typed example programs of test/types/corpus (and the strict-body
// program) with `tsc` semantics against the BUILT package ('switchyardjs' resolves
// to dist/ through the package's own "exports"): every program must compile.
import { describe, expect, test } from 'vitest'
import path from 'node:path'
import ts from 'typescript'

const root = path.dirname(new URL(import.meta.url).pathname)

function compile(project: string) {
  const configPath = path.join(root, project, 'tsconfig.json')
  const config = ts.readConfigFile(configPath, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, path.dirname(configPath))
  const program = ts.createProgram(parsed.fileNames, parsed.options)
  const format = (diagnostics: readonly ts.Diagnostic[]) =>
    ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n'
    })
  return { program, fileNames: parsed.fileNames, format }
}

describe('tsc --noEmit -p test/types/corpus', () => {
  const { program, fileNames, format } = compile('corpus')

  test('has at least 15 example programs in both module modes', () => {
    expect(fileNames.length).toBeGreaterThanOrEqual(15)
    expect(fileNames.some((f) => f.endsWith('.mts'))).toBe(true)
    expect(fileNames.some((f) => f.endsWith('.cts'))).toBe(true)
  })

  test('the program options and declaration files are error-free', () => {
    expect(format([...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()])).toBe('')
    const declarations = program.getSourceFiles().filter((f) => f.fileName.includes('/dist/'))
    expect(declarations.map((f) => path.basename(f.fileName))).toEqual(
      expect.arrayContaining(['index.d.cts', 'index.d.mts', 'body-parser.d.cts', 'body-parser.d.mts'])
    )
    expect(format(declarations.flatMap((f) => program.getSemanticDiagnostics(f)))).toBe('')
  })

  for (const file of fileNames) {
    test(`${path.basename(file)} compiles`, () => {
      const source = program.getSourceFile(file)!
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
      expect(format(diagnostics)).toBe('')
    })
  }
})

describe('tsc --noEmit -p test/types/strict (Switchyard.TypeOptions strictBody)', () => {
  test('req.body defaults to unknown and the program compiles', () => {
    const { program, fileNames, format } = compile('strict')
    // its own files and switchyard's declarations (not all of @types/node: slow, and not ours)
    const checked = program.getSourceFiles().filter((f) => fileNames.includes(f.fileName) || f.fileName.includes('/dist/'))
    expect(checked.length).toBeGreaterThan(fileNames.length)
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])
    ]
    expect(format(diagnostics)).toBe('')
  })
})
