// The typed corpus (test/types/compat) in every module mode: against switchyard
// alone, against switchyard with @types/express installed side by side, and
// against @types/express itself (the oracle), where only the lines marked
// `// @types/express differs: <reason>` may fail, and each of them must.
// See test/types/support/modes.ts for how each program is set up.
import { describe, expect, test } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { MODES, compileCorpus, corpusFiles, format, markedLines, repo, type Mode } from './support/modes'

const sideBySide = { 'side-by-side.ts': fs.readFileSync(path.join(repo, 'test/types/side-by-side/mixed.ts'), 'utf8') }
const besideExpress4 = { 'express-v4.ts': fs.readFileSync(path.join(repo, 'test/types/side-by-side/express-v4.ts'), 'utf8') }

describe.each(Object.keys(MODES) as Mode[])('typed corpus, %s mode', (mode) => {
  // without esModuleInterop only the `cjs-*` and `nointerop-*` programs apply
  const interop = MODES[mode].interop !== false

  test('has shared and mode-specific programs', () => {
    const files = corpusFiles(mode)
    if (interop) {
      expect(files.length).toBeGreaterThanOrEqual(12)
      expect(files.some((f) => (MODES[mode].esm ? f.startsWith('esm-') : f.startsWith('cjs-')))).toBe(true)
    } else {
      expect(files.some((f) => f.startsWith('cjs-'))).toBe(true)
      expect(files.some((f) => f.startsWith('nointerop-'))).toBe(true)
    }
  })

  test('compiles against switchyard alone (no @types/express)', () => {
    const { program, diagnostics, files } = compileCorpus(mode, 'switchyard')
    expect(program.getSourceFiles().some((f) => f.fileName.includes('@types/express'))).toBe(false)
    expect(format(diagnostics, files)).toBe('')
  })

  test('emits declaration files (declaration: true): every inferred type is nameable from outside the package', () => {
    // a router module (`export default Router()`) must not give TS2742
    const { program, files } = compileCorpus(mode, 'switchyard', {}, { declaration: true, emitDeclarationOnly: true, noEmit: false })
    const diagnostics = program.getSourceFiles().filter((f) => files.has(f.fileName)).flatMap((f) => [...program.getDeclarationDiagnostics(f)])
    expect(format(diagnostics, files)).toBe('')
  })

  test('compiles against switchyard with @types/express installed side by side', () => {
    // the side-by-side program default-imports multer and cookie-parser: it needs esModuleInterop
    const { program, diagnostics, files } = compileCorpus(mode, 'switchyard+@types/express', interop ? sideBySide : {})
    expect(program.getSourceFiles().some((f) => f.fileName.endsWith('@types/express/index.d.ts'))).toBe(true)
    expect(format(diagnostics, files)).toBe('')
  })

  test('compiles against switchyard with @types/express@4 installed side by side', () => {
    // the Express 4 program default-imports switchyard: it needs esModuleInterop
    const { program, diagnostics, files } = compileCorpus(mode, 'switchyard+@types/express@4', interop ? besideExpress4 : {})
    if (interop) expect(program.getSourceFiles().some((f) => f.fileName.endsWith('@types/express-v4/index.d.ts'))).toBe(true)
    expect(format(diagnostics, files)).toBe('')
  })

  test('against @types/express, fails exactly on the lines marked as deliberate differences', () => {
    const { diagnostics, files } = compileCorpus(mode, '@types/express')
    const unexpected = diagnostics.filter((d) => {
      const original = d.file && files.get(d.file.fileName)
      if (!original) return true
      const line = d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1
      return !markedLines(fs.readFileSync(original, 'utf8')).includes(line)
    })
    expect(format(unexpected, files)).toBe('')
    const missing: string[] = []
    for (const [virtual, original] of files) {
      for (const line of markedLines(fs.readFileSync(original, 'utf8'))) {
        const hit = diagnostics.some((d) => d.file?.fileName === virtual && d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 === line)
        if (!hit) missing.push(`${path.relative(repo, original)}:${line}`)
      }
    }
    expect(missing, 'marked as differing, but @types/express accepts it: remove the mark').toEqual([])
  })
})
