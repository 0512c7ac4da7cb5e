// app.param, app.route chains and wildcard routes with inferred parameters.
import express from 'switchyardjs'

interface Book {
  isbn: string
  title: string
}
const books = new Map<string, Book>()

const app = express()

app.param('isbn', (req, res, next, value: string) => {
  if (!/^\d{10,13}$/.test(value)) return res.status(400).send('bad isbn')
  next()
})

app
  .route('/books/:isbn')
  .get((req, res) => {
    const book = books.get(req.params.isbn)
    book ? res.json(book) : res.sendStatus(404)
  })
  .put(express.json(), (req, res) => {
    books.set(req.params.isbn, { isbn: req.params.isbn, title: String(req.body.title) })
    res.sendStatus(204)
  })

app.get('/docs/*path', (req, res) => {
  res.send(req.params.path.join('/'))
})

app.get('/archive/:year{/:month}', (req, res) => {
  const { year, month = '01' } = req.params
  res.send(`${year}-${month}`)
})

app.get(/^\/legacy\/(\d+)$/, (req, res) => {
  res.send(req.params[0])
})
