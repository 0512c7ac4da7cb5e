// The strict-body opt-in: with `strictBody: true`, `req.body` defaults to `unknown`
// everywhere, so the compiler forces validation before use. (A separate program:
// the setting is global.)
import express, { type Request, type RequestHandler } from 'switchyardjs'

declare global {
  namespace Switchyard {
    interface TypeOptions {
      strictBody: true
    }
  }
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const assert = <T extends true>(): T => true as T

assert<Equal<Request['body'], unknown>>()
assert<Equal<Parameters<RequestHandler>[0]['body'], unknown>>()
// an explicit ReqBody still types the body
assert<Equal<Request<{}, any, { name: string }>['body'], { name: string }>>()

function isNamed(value: unknown): value is { name: string } {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string'
}

const app = express()
app.use(express.json())
app.post('/users/:id', (req, res) => {
  // @ts-expect-error the body is unknown until validated
  req.body.name
  if (!isNamed(req.body)) return res.status(422).send('name required')
  res.send(`${req.params.id}: ${req.body.name}`)
})
