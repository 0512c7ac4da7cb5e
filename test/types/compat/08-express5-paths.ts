// Express 5 path syntax: optional groups, named wildcards, escapes.
import express from 'switchyardjs'

const app = express()

app.get('/books{/:format}', (req, res) => {
  const format: string | undefined = req.params.format
  res.send(format ?? 'html')
})

app.get('/files/*filepath', (req, res) => {
  const segments: string[] = req.params.filepath
  res.send(segments.join('/'))
})

app.get('/docs/{*rest}', (req, res) => {
  const rest = req.params.rest
  res.send(rest === undefined ? 'index' : rest.join('/'))
})

app.get('/users/:id', (req, res) => {
  res.send(req.params.id.toUpperCase())
})

app.get('/range/:from-:to', (req, res) => {
  res.json({ from: Number(req.params.from), to: Number(req.params.to) })
})

app.get('/pages/:page.:ext', (req, res) => {
  res.type(req.params.ext).send(req.params.page)
})

app.get('/people/:"full name"', (req, res) => {
  res.send(req.params['full name']) // @types/express differs: a quoted name is the text between the quotes
})

app.get('/clock\\:now/:zone', (req, res) => {
  const only: { zone: string } = req.params
  // @ts-expect-error no parameter 'now' // @types/express differs: an escaped ':' starts no parameter
  res.send(req.params.now + only.zone)
})

function byId(req: express.Request, res: express.Response) {
  const id: string = req.params.id // @types/express differs: ParamsDictionary values are strings
  res.send(id)
}
app.get(['/a/:id', '/b/:id'], byId)

app.use('/mounted/:tenant', (req, _res, next) => {
  console.log(req.params.tenant, req.baseUrl)
  next()
})
