// A newcomer's first hour: a fresh project with only `typescript` and the
// packed package installed. `npm pack` makes the tarball from the BUILT
// package (npm test builds first); it is unpacked into node_modules/switchyardjs
// and the package's dependencies are linked in beside it, as npm lays them out
// (@types/node among them: it is one of the package's dependencies), and
// typescript is linked from the repository. Nothing is fetched.
//
// The README's TypeScript quick start (test/fixtures/fresh-project, and every
// ```ts block of README.md that imports the package) compiles with a plain
// tsconfig (module nodenext, strict, the package's declarations checked) in a
// CommonJS and in a "type": "module" project; the JavaScript quick start
// answers a request, loaded with require and with import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const fixtures = path.join(repo, 'test/fixtures/fresh-project')
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'))
const shell = process.platform === 'win32'
let dir = ''

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}

function link(name: string) {
  const to = path.join(dir, 'node_modules', name)
  fs.mkdirSync(path.dirname(to), { recursive: true })
  fs.symlinkSync(path.join(repo, 'node_modules', name), to, 'junction')
}

/** The ```ts blocks of README.md that import the package. */
function readmePrograms(): string[] {
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8')
  return [...readme.matchAll(/^```ts\n([^]*?)^```$/gm)].map((m) => m[1]).filter((code) => code.includes("from 'switchyardjs'"))
}

beforeAll(() => {
  expect(fs.existsSync(path.join(repo, 'dist', 'index.cjs')), 'run `npm run build` first').toBe(true)
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-fresh-'))
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: repo, encoding: 'utf8', shell, stdio: ['ignore', 'pipe', 'pipe'] }))
  const installed = path.join(dir, 'node_modules', 'switchyardjs')
  fs.mkdirSync(installed, { recursive: true })
  execFileSync('tar', ['-xzf', path.join(dir, packed.filename), '-C', installed, '--strip-components=1'])
  for (const dep of Object.keys(pkg.dependencies)) link(dep)
  link('typescript')
  write(path.join(dir, 'package.json'), JSON.stringify({
    name: 'fresh-project',
    private: true,
    dependencies: { switchyardjs: `file:${packed.filename}` },
    devDependencies: { typescript: pkg.devDependencies.typescript }
  }))
  write(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', strict: true, noEmit: true } }))
  const quickStart = fs.readFileSync(path.join(fixtures, 'quick-start.ts'), 'utf8')
  write(path.join(dir, 'src/quick-start.ts'), quickStart)
  write(path.join(dir, 'esm/package.json'), JSON.stringify({ type: 'module' }))
  write(path.join(dir, 'esm/quick-start.ts'), quickStart)
  readmePrograms().forEach((code, i) => {
    write(path.join(dir, `src/readme-${i}.ts`), code)
    write(path.join(dir, `esm/readme-${i}.ts`), code)
  })
  fs.copyFileSync(path.join(fixtures, 'quick-start.cjs'), path.join(dir, 'quick-start.cjs'))
  fs.copyFileSync(path.join(fixtures, 'quick-start.mjs'), path.join(dir, 'quick-start.mjs'))
})

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

/** Run `file` with node in the fresh project, ask GET `target` of the port it prints, stop it, and return the answer. */
function answer(file: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] })
    child.on('error', reject)
    child.on('exit', (code) => reject(new Error(`${file} exited (${code}) before it answered`)))
    child.stdout.setEncoding('utf8')
    child.stdout.once('data', (port: string) => {
      http.get({ host: '127.0.0.1', port: Number(port), path: target }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => { body += d })
        res.on('end', () => { child.kill(); resolve({ status: res.statusCode!, body }) })
      }).on('error', (err) => { child.kill(); reject(err) })
    })
  })
}

describe('a fresh project with only typescript and the packed package', () => {
  it('has the package as npm unpacks it, and nothing else of the repository', () => {
    const installed = path.join(dir, 'node_modules', 'switchyardjs')
    expect(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).name).toBe('switchyardjs')
    expect(fs.existsSync(path.join(installed, 'dist', 'index.d.cts'))).toBe(true)
    expect(fs.existsSync(path.join(installed, 'src'))).toBe(false)
    expect(fs.readdirSync(path.join(dir, 'node_modules', '@types')).sort()).toEqual(['node'])
  })

  // (skipLibCheck is off: the package's declarations are checked with the
  // program, so this takes some seconds)
  it("compiles the README's TypeScript quick start with 0 errors, as CommonJS and as an ES module", () => {
    const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc')
    const run = spawnSync(process.execPath, [tsc, '-p', dir, '--listFiles', '--pretty', 'false'], { cwd: dir, encoding: 'utf8' })
    const lines = (run.stdout + run.stderr).split('\n').filter(Boolean)
    const files = lines.filter((l) => path.isAbsolute(l)).map((f) => f.split(path.sep).join('/'))
    expect(lines.filter((l) => !path.isAbsolute(l))).toEqual([])
    expect(run.status).toBe(0)
    // (the installed package's declarations, not the repository's; no @types/express)
    expect(files.filter((f) => f.startsWith(dir.split(path.sep).join('/') + '/') && !f.includes('/node_modules/'))).toEqual(expect.arrayContaining([expect.stringMatching(/src\/quick-start\.ts$/), expect.stringMatching(/esm\/quick-start\.ts$/)]))
    expect(files).toContainEqual(expect.stringMatching(/node_modules\/switchyardjs\/dist\/index\.d\.cts$/))
    expect(files).toContainEqual(expect.stringMatching(/node_modules\/switchyardjs\/dist\/index\.d\.mts$/))
    expect(files.some((f) => f.includes('@types/express'))).toBe(false)
  }, 60_000)

  for (const file of ['quick-start.cjs', 'quick-start.mjs']) {
    it(`runs the JavaScript quick start (${file.endsWith('.cjs') ? 'require' : 'import'}) and it answers a request`, async () => {
      expect(await answer(file, '/users/7')).toEqual({ status: 200, body: '{"id":"7"}' })
    })
  }
})
