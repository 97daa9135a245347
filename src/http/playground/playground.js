// The playground: a board that calls the service's own endpoints and shows each call.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const ui = {
    board: $('board'), status: $('status'), error: $('error'), path: $('path'),
    pathCount: $('path-count'), apply: $('apply'), curl: $('curl'), answer: $('answer'),
    answerStatus: $('answer-status'), size: $('size'), pencil: $('pencil'),
    editGivens: $('edit-givens'), trueCandidates: $('true-candidates'), level: $('level'),
    symmetry: $('symmetry'), seed: $('seed'), variant: $('variant'), maxGivens: $('max-givens'),
    puzzleText: $('puzzle-text'), legend: $('legend'),
  };
  const HIGHLIGHTS = ['house', 'pattern', 'placement', 'conflict', 'mistake', 'solved'];
  const CLASSIC_SIZES = [4, 9, 16];

  // The board: digits are numbers (0 blank), pencil marks bit masks (bit d-1 for digit d).
  const state = {
    size: 9, givens: [], values: [], marks: null, history: [],
    houses: null, // the cells of each house, by the API's unit names (see `housesOf`)
    peers: null, // for each cell, the cells that share a house with it
    variant: null, // a variant puzzle: { source, the text sent as `fpuzzles`; doc, its document }
    hiddenMarks: null, // the marks kept while pencil marks are off
    trueCandidates: null, // { key, masks }: the engine's true candidates of the puzzle `key`
    markup: null, // what the last answer highlights
    step: null, // the step a hint or the path shows, for "Apply"
    path: null, // an explanation being stepped through: { steps, at, stalled }
  };
  let inputs = [];

  const symbol = (digit) => (digit ? digit.toString(36).toUpperCase() : '.');
  const digitOf = (char) => {
    const digit = parseInt(char, 36);
    return digit >= 1 && digit <= state.size ? digit : 0;
  };
  const text = (digits) => digits.map(symbol).join('');
  const cellName = (index) => `r${Math.floor(index / state.size) + 1}c${(index % state.size) + 1}`;
  const indexOf = ({ row, col }) => row * state.size + col;
  const bit = (digit) => 1 << (digit - 1);
  const maskOf = (digits) => digits.reduce((mask, digit) => mask | bit(digit), 0);
  const bitsOf = (mask) => [...Array(state.size).keys()].map((k) => k + 1).filter((digit) => mask & bit(digit));
  const range = (count) => [...Array(count).keys()]; // 0 to count - 1

  // --- Houses ---------------------------------------------------------------------------

  // f-puzzles' default regions of a grid of `size`: boxes whose height is the largest
  // factor of the size at most its square root (so 6 has 2×3 boxes and 9 has 3×3).
  function defaultRegions(size) {
    const height = Math.max(...range(size + 1).filter((h) => h && size % h === 0 && h * h <= size));
    const width = size / height;
    return range(size * size).map((cell) => Math.floor(cell / size / height) * height + Math.floor((cell % size) / width));
  }

  // The cells of each house, numbered as the API's steps number them: regions in the order
  // of their numbers (`box` on classic boards), diagonals `diagonal+` first, extra regions
  // of at most `size` cells, and the disjoint groups by place in the region.
  function housesOf(size, regions, doc) {
    const all = range(size);
    const byNumber = new Map();
    regions.forEach((region, cell) => {
      if (region !== null) byNumber.set(region, [...(byNumber.get(region) || []), cell]);
    });
    const region = [...byNumber.keys()].sort((a, b) => a - b).map((key) => byNumber.get(key));
    const diagonal = [];
    if (doc && doc['diagonal+']) diagonal.push(all.map((i) => (size - 1 - i) * size + i));
    if (doc && doc['diagonal-']) diagonal.push(all.map((i) => i * size + i));
    const extra = doc ? entries(doc, 'extraregion').map((entry) => cellsOf(entry.cells)) : [];
    return {
      row: all.map((row) => all.map((col) => row * size + col)),
      column: all.map((col) => all.map((row) => row * size + col)),
      box: region,
      region,
      diagonal,
      extra_region: extra.filter((cells) => cells.length <= size).map((cells) => cells.map(({ row, col }) => row * size + col)),
      disjoint_group: doc && doc.disjointgroups ? all.map((place) => region.map((cells) => cells[place])) : [],
    };
  }

  // For each cell, every cell that shares a house with it (itself included).
  function peersOf(houses, count) {
    const peers = range(count).map(() => new Set());
    Object.values(houses).flat().forEach((cells) => cells.forEach((cell) => cells.forEach((other) => peers[cell].add(other))));
    return peers.map((set) => [...set]);
  }

  // The cells of a house of a step (none for a house this board does not have).
  const houseCells = (unit, index) => (state.houses[unit] && state.houses[unit][index]) || [];

  // The candidates the digits leave in every empty cell.
  function candidates(values) {
    const full = (1 << state.size) - 1;
    return values.map((value, index) => (value ? 0 : full & ~maskOf(state.peers[index].map((peer) => values[peer]).filter(Boolean))));
  }

  // --- f-puzzles documents ----------------------------------------------------------------

  const LZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';

  // lz-string's decompressFromBase64: the text f-puzzles puts after `?load=`, decoded, or
  // null when `text` is not such text. The bits are read six to a character, high bit
  // first; each code is read low bit first, in a width that grows with the dictionary.
  function decompressFromBase64(text) {
    const values = [...text].map((char) => LZ_ALPHABET.indexOf(char));
    if (!values.length || values.includes(-1)) return null;
    let at = 0; // bits read so far
    const read = (count) => {
      let bits = 0;
      for (let k = 0; k < count; k += 1, at += 1) {
        if ((values[Math.floor(at / 6)] || 0) & (32 >> (at % 6))) bits |= 1 << k;
      }
      return bits;
    };
    const dictionary = [null, null, null]; // codes 0, 1 and 2 say what follows
    let width = 3;
    let enlargeIn = 4;
    const add = (entry) => {
      dictionary.push(entry);
      enlargeIn -= 1;
      if (enlargeIn === 0) {
        enlargeIn = 2 ** width;
        width += 1;
      }
    };
    const first = read(2);
    if (first === 2) return '';
    if (first > 2) return null;
    let word = String.fromCharCode(read(first === 0 ? 8 : 16));
    dictionary.push(word);
    const result = [word];
    for (;;) {
      if (at >= 6 * values.length) return null;
      let code = read(width);
      if (code === 2) return result.join('');
      if (code < 2) {
        add(String.fromCharCode(read(code === 0 ? 8 : 16)));
        code = dictionary.length - 1;
      }
      const entry = code < dictionary.length ? dictionary[code] : code === dictionary.length && word + word[0];
      if (!entry) return null;
      result.push(entry);
      add(word + entry[0]);
      word = entry;
    }
  }

  // The sites whose links carry puzzles, by host.
  const SITES = new Map([
    ['f-puzzles.com', 'f-puzzles'], ['www.f-puzzles.com', 'f-puzzles'], ['sudokupad.app', 'sudokupad'],
    ['beta.sudokupad.app', 'sudokupad'], ['app.crackingthecryptic.com', 'sudokupad'],
  ]);

  // The lower-case host of a link and what follows it, or null for text that is no link:
  // a link starts with `http(s)://`, or with the host of one of the SITES and `/` or `?`.
  function linkParts(text) {
    const [, scheme, host, rest] = /^(https?:\/\/)?([^/?#]*)([^]*)$/i.exec(text);
    const site = SITES.has(host.toLowerCase()) && /^[/?]/.test(rest);
    return scheme || site ? [host.toLowerCase(), rest] : null;
  }

  // The lz-string text that pasted text carries: the text itself, or the payload of an
  // f-puzzles link (`?load=`) or of a SudokuPad link to f-puzzles text (`fpuzzles…`,
  // `fpuz…`); null for any other link, which the API refuses in words.
  function payloadOf(pasted) {
    const link = linkParts(pasted);
    if (!link) return pasted;
    const [host, rest] = link;
    if (SITES.get(host) === 'f-puzzles') {
      const load = /[?&]load=([^&#]*)/.exec(rest);
      return load && load[1];
    }
    if (SITES.get(host) === 'sudokupad') {
      const path = rest.split(/[?#]/)[0].replace(/^\/+/, '').replace(/^(sudoku\/){1,2}/, '');
      const payload = /^fpuz(?:zles)?([^]*)$/.exec(path);
      return payload && payload[1];
    }
    return null;
  }

  // The f-puzzles document that pasted text holds (the JSON, its lz-string text, or a link
  // that carries it), or null when it holds none this page can draw.
  function documentOf(pasted) {
    const trimmed = pasted.trim();
    let json = trimmed;
    if (!trimmed.startsWith('{')) {
      const payload = payloadOf(trimmed);
      try {
        json = payload && decompressFromBase64(decodeURIComponent(payload).replace(/\s/g, ''));
      } catch {
        return null; // broken percent-encoding
      }
    }
    let doc;
    try {
      doc = JSON.parse(json);
    } catch {
      return null;
    }
    const size = doc && doc.size;
    const square = Number.isInteger(size) && size >= 3 && size <= 16 && Array.isArray(doc.grid)
      && doc.grid.length === size && doc.grid.every((row) => Array.isArray(row) && row.length === size);
    return square ? doc : null;
  }

  // Whether pasted text is for the variant readers: JSON, a link, or lz-string text.
  const isVariantText = (pasted) => pasted.startsWith('{') || linkParts(pasted) !== null || documentOf(pasted) !== null;

  // The cell named `R1C1` (1-based; row or column 0 or size + 1 stand outside the grid),
  // as 0-based { row, col }, or null.
  function cellNamed(name) {
    const match = /^R(\d+)C(\d+)$/i.exec(String(name).trim());
    return match && { row: Number(match[1]) - 1, col: Number(match[2]) - 1 };
  }

  // The cells of a list of cell names, names that are none left out.
  const cellsOf = (names) => (Array.isArray(names) ? names.map(cellNamed).filter(Boolean) : []);
  // The array `key` of a document (empty when it has none).
  const entries = (doc, key) => (Array.isArray(doc[key]) ? doc[key] : []);
  // The cell objects of a document, row by row.
  const docCells = (doc) => doc.grid.flat().map((cell) => cell || {});

  // The region of each cell: f-puzzles' default boxes, or the cell's `region` (null for
  // none).
  function regionsOf(doc) {
    const regions = defaultRegions(doc.size);
    docCells(doc).forEach((cell, index) => {
      if ('region' in cell) regions[index] = cell.region === null ? null : Number(cell.region);
    });
    return regions;
  }

  // The givens of a document: cells with a `value` and `given: true`.
  function givensOf(doc) {
    return docCells(doc).map((cell) => {
      const digit = Number(cell.value);
      return cell.given === true && Number.isInteger(digit) && digit >= 1 && digit <= doc.size ? digit : 0;
    });
  }

  // A copy of a document with `digits` as its givens.
  function withGivens(doc, digits) {
    const grid = doc.grid.map((row, r) => row.map((cell, c) => {
      const { value, given, ...rest } = cell || {};
      const digit = digits[r * doc.size + c];
      return digit ? { ...rest, value: digit, given: true } : rest;
    }));
    return { ...doc, grid };
  }

  // "“Title” by Author, 9×9", as far as the document says.
  function describe(doc) {
    const title = doc.title ? `“${doc.title}”` : 'a variant puzzle';
    const author = doc.author ? ` by ${doc.author}` : '';
    return `${title}${author}, ${doc.size}×${doc.size}`;
  }

  // --- The drawing of the rules ---------------------------------------------------------
  //
  // An SVG over the board, a cell UNIT wide, from the f-puzzles document: one element per
  // rule, `data-rule="<f-puzzles key> <index>"`, as the API names a rule in a step.

  const SVG = 'http://www.w3.org/2000/svg';
  const UNIT = 100;
  const HALF = UNIT / 2;

  // An SVG element with attributes, added to `parent`.
  function svg(name, attributes, parent) {
    const element = document.createElementNS(SVG, name);
    Object.entries(attributes).forEach(([key, value]) => element.setAttribute(key, value));
    parent.append(element);
    return element;
  }

  // Text centred on (x, y).
  const caption = (content, x, y, parent) => {
    svg('text', { x, y }, parent).textContent = content;
  };

  // The centre of a cell, a point as [x, y] and a path through points, in drawing units.
  const centre = ({ row, col }) => [(col + 0.5) * UNIT, (row + 0.5) * UNIT];
  const pathOf = (points) => points.map(([x, y], k) => `${k ? 'L' : 'M'}${x} ${y}`).join('');
  // The point halfway between points (where two cells meet, or four).
  const mean = (points) => [0, 1].map((axis) => points.reduce((sum, point) => sum + point[axis], 0) / points.length);

  // `from` moved towards `to` by `by`.
  function towards(from, to, by) {
    const length = Math.hypot(to[0] - from[0], to[1] - from[1]) || 1;
    return [from[0] + ((to[0] - from[0]) * by) / length, from[1] + ((to[1] - from[1]) * by) / length];
  }

  // A line through the centres of `cells`, cut short by `start` and `end` at its ends
  // (where a circle or a diamond stands).
  function line(cells, parent, start = 0, end = 0) {
    const points = cells.map(centre);
    if (points.length > 1) {
      points[0] = towards(points[0], points[1], start);
      points[points.length - 1] = towards(points[points.length - 1], points[points.length - 2], end);
    }
    svg('path', { d: pathOf(points) }, parent);
    return points;
  }

  // A circle, squares over cells (shaded as the style sheet says for the rule), a diamond.
  const circle = ([cx, cy], r, parent) => svg('circle', { cx, cy, r }, parent);
  const shade = (cells, parent) => cells.forEach(({ row, col }) => svg('rect', { x: col * UNIT, y: row * UNIT, width: UNIT, height: UNIT }, parent));
  const diamond = ([x, y], r, parent) => svg('path', { d: `${pathOf([[x, y - r], [x + r, y], [x, y + r], [x - r, y]])}Z` }, parent);

  // The outline of a set of cells, `inset` inside its border: a segment along each side
  // that borders no cell of the set, each end drawn in at an outer corner, out to the
  // neighbour's side at an inner corner, and flush where the outline goes straight on.
  function outline(cells, inset) {
    const inside = new Set(cells.map(({ row, col }) => `${row} ${col}`));
    const has = (row, col) => inside.has(`${row} ${col}`);
    const segments = [];
    cells.forEach(({ row, col }) => {
      [[0, -1], [1, 0], [0, 1], [-1, 0]].forEach(([nx, ny]) => {
        if (has(row + ny, col + nx)) return;
        const [tx, ty] = [-ny, nx];
        const reach = (sign) => {
          const [along, across] = [[row + sign * ty, col + sign * tx], [row + sign * ty + ny, col + sign * tx + nx]];
          if (!has(...along)) return HALF - inset;
          return has(...across) ? HALF + inset : HALF;
        };
        const [cx, cy] = centre({ row, col });
        const at = (s) => [cx + nx * (HALF - inset) + tx * s, cy + ny * (HALF - inset) + ty * s];
        segments.push(pathOf([at(-reach(-1)), at(reach(1))]));
      });
    });
    return segments.join('');
  }

  // An entry's `value` as text ('' when it has none), and its `lines` as lists of cells.
  const valueOf = (entry) => (entry.value === undefined || entry.value === null ? '' : String(entry.value).trim());
  const linesOf = (entry) => (Array.isArray(entry.lines) ? entry.lines : []).map(cellsOf);

  // What stands at the ends of a kind of line: a bulb at its start, or a mark at each end.
  const LINE_ENDS = {
    thermometer: { bulb: true },
    slowthermometer: { bulb: true },
    betweenline: { ends: circle },
    doublearrow: { ends: circle },
    lockout: { ends: diamond },
  };
  const LINE_KINDS = ['thermometer', 'slowthermometer', 'palindrome', 'renban', 'whispers', 'betweenline',
    'regionsumline', 'entropicline', 'modularline', 'zipperline', 'doublearrow', 'lockout', 'nabner'];
  const END_RADIUS = 0.38 * UNIT;

  // Each line of a line rule of `kind`, with its bulb or the marks at its ends.
  function drawLines(kind, entry, g) {
    const { bulb, ends } = LINE_ENDS[kind] || {};
    linesOf(entry).filter((cells) => cells.length).forEach((cells) => {
      const cut = ends ? END_RADIUS : 0;
      const points = line(cells, g, cut, cut);
      if (bulb) circle(centre(cells[0]), 0.34 * UNIT, g).classList.add('bulb');
      if (ends) [cells[0], cells[cells.length - 1]].forEach((cell) => ends(centre(cell), END_RADIUS, g));
      if (points.length === 1) circle(points[0], 0.1 * UNIT, g);
    });
  }

  // An arrow: a circle (or a pill over several cells) and lines that end in a head.
  function drawArrow(entry, g) {
    const circled = cellsOf(entry.cells);
    const inCircle = (cell) => circled.some(({ row, col }) => row === cell.row && col === cell.col);
    if (circled.length === 1) circle(centre(circled[0]), END_RADIUS, g);
    else if (circled.length) {
      const rows = circled.map(({ row }) => row);
      const cols = circled.map(({ col }) => col);
      const pad = HALF - END_RADIUS;
      const [x, y] = [Math.min(...cols) * UNIT + pad, Math.min(...rows) * UNIT + pad];
      const width = (Math.max(...cols) + 1) * UNIT - pad - x;
      const height = (Math.max(...rows) + 1) * UNIT - pad - y;
      svg('rect', { x, y, width, height, rx: END_RADIUS, ry: END_RADIUS }, g);
    }
    linesOf(entry).filter((cells) => cells.length > 1).forEach((cells) => {
      const points = line(cells, g, inCircle(cells[0]) ? END_RADIUS : 0);
      const tip = points[points.length - 1];
      const [dx, dy] = [tip[0] - points[points.length - 2][0], tip[1] - points[points.length - 2][1]];
      const length = Math.hypot(dx, dy) || 1;
      const [ux, uy] = [dx / length, dy / length];
      const [back, side] = [0.25 * UNIT, 0.18 * UNIT];
      svg('path', { d: pathOf([[tip[0] - ux * back - uy * side, tip[1] - uy * back + ux * side], tip, [tip[0] - ux * back + uy * side, tip[1] - uy * back - ux * side]]) }, g);
    });
  }

  // A killer cage: a dashed outline, and its sum in its first cell's top-left corner.
  function drawCage(entry, g) {
    const cells = cellsOf(entry.cells);
    if (!cells.length) return;
    svg('path', { d: outline(cells, 0.08 * UNIT) }, g);
    const value = valueOf(entry);
    if (!value) return;
    const [first] = [...cells].sort((a, b) => a.row - b.row || a.col - b.col);
    caption(value, first.col * UNIT + 0.06 * UNIT, first.row * UNIT + 0.2 * UNIT, g);
  }

  // A dot or mark between two cells, with its value when it is not the default.
  function pairMark(kind, fallback) {
    return (entry, g) => {
      const cells = cellsOf(entry.cells);
      if (!cells.length) return;
      const at = mean(cells.map(centre));
      const value = valueOf(entry);
      if (kind === 'xv') {
        caption(value.toUpperCase(), ...at, g);
        return;
      }
      circle(at, (kind === 'sum' ? 0.16 : 0.12) * UNIT, g);
      if (value && value !== fallback) caption(value, ...at, g);
    };
  }

  // A quadruple: a circle where its four cells meet, with its digits.
  function drawQuadruple(entry, g) {
    const cells = cellsOf(entry.cells);
    if (!cells.length) return;
    const [x, y] = mean(cells.map(centre));
    circle([x, y], 0.32 * UNIT, g);
    const digits = (Array.isArray(entry.values) ? entry.values : []).map(String);
    const rows = digits.length > 2 ? [digits.slice(0, 2), digits.slice(2)] : [digits];
    rows.forEach((row, k) => caption(row.join(' '), x, y + (k - (rows.length - 1) / 2) * 0.22 * UNIT, g));
  }

  // A clue outside the grid: its number, with an arrow along a little killer's diagonal, a
  // circle round an X-sum and a box round a skyscraper.
  function outsideClue(kind) {
    return (entry, g) => {
      const cell = cellNamed(entry.cell);
      if (!cell) return;
      const at = centre(cell);
      const value = valueOf(entry);
      const step = { UL: [-1, -1], UR: [1, -1], DL: [-1, 1], DR: [1, 1] }[entry.direction];
      if (kind === 'littlekillersum' && step) {
        const [dx, dy] = step.map((d) => d * 0.14 * UNIT);
        const tip = [at[0] + dx * 3, at[1] + dy * 3];
        svg('path', { d: pathOf([[at[0] + dx, at[1] + dy], tip]) + pathOf([[tip[0] - dx, tip[1]], tip, [tip[0], tip[1] - dy]]) }, g);
        caption(value, at[0] - dx, at[1] - dy, g);
        return;
      }
      if (kind === 'xsum') circle(at, 0.34 * UNIT, g);
      if (kind === 'skyscraper') svg('rect', { x: at[0] - 0.3 * UNIT, y: at[1] - 0.38 * UNIT, width: 0.6 * UNIT, height: 0.76 * UNIT }, g);
      caption(value, ...at, g);
    };
  }

  // An odd cell is a grey circle, an even cell a grey square.
  const parity = (odd) => (entry, g) => {
    const cell = cellNamed(entry.cell);
    if (!cell) return;
    if (odd) circle(centre(cell), 0.36 * UNIT, g);
    else svg('rect', { x: (cell.col + 0.15) * UNIT, y: (cell.row + 0.15) * UNIT, width: 0.7 * UNIT, height: 0.7 * UNIT }, g);
  };

  // A minimum (maximum) cell: a chevron on each side that points in (out).
  function extremum(maximum) {
    return (entry, g) => {
      const cell = cellNamed(entry.cell);
      if (!cell) return;
      const [cx, cy] = centre(cell);
      const [tip, arms] = maximum ? [0.44, 0.32] : [0.32, 0.44];
      const d = [[0, -1], [1, 0], [0, 1], [-1, 0]].map(([nx, ny]) => {
        const at = (out, side) => [cx + (nx * out - ny * side) * UNIT, cy + (ny * out + nx * side) * UNIT];
        return pathOf([at(arms, -0.12), at(tip, 0), at(arms, 0.12)]);
      }).join('');
      svg('path', { d }, g);
    };
  }

  // A rule that marks its cells: the cells shaded.
  const shadeCells = (entry, g) => shade(cellsOf(entry.cells), g);

  // How to draw each rule of each kind, in two layers: beneath the region borders (cell
  // shading) and above them.
  const UNDER = [
    ['extraregion', shadeCells],
    ['clone', (entry, g) => shade([...cellsOf(entry.cells), ...cellsOf(entry.cloneCells)], g)],
    ['rowindexer', shadeCells],
    ['columnindexer', shadeCells],
    ['boxindexer', shadeCells],
    ['odd', parity(true)],
    ['even', parity(false)],
    ['parity', (entry, g) => parity(entry.odd)(entry, g)],
  ];
  const OVER = [
    ['diagonal+', (entry, g, size) => svg('path', { d: pathOf([[0, size * UNIT], [size * UNIT, 0]]) }, g)],
    ['diagonal-', (entry, g, size) => svg('path', { d: pathOf([[0, 0], [size * UNIT, size * UNIT]]) }, g)],
    ['minimum', extremum(false)],
    ['maximum', extremum(true)],
    ...LINE_KINDS.map((kind) => [kind, (entry, g) => drawLines(kind, entry, g)]),
    ['arrow', drawArrow],
    ['killercage', drawCage],
    ['difference', pairMark('difference', '1')],
    ['ratio', pairMark('ratio', '2')],
    ['sum', pairMark('sum', '')],
    ['xv', pairMark('xv', '')],
    ['quadruple', drawQuadruple],
    ['littlekillersum', outsideClue('littlekillersum')],
    ['sandwichsum', outsideClue('sandwichsum')],
    ['xsum', outsideClue('xsum')],
    ['skyscraper', outsideClue('skyscraper')],
    ['givenPencilMarks', (entry, g) => {
      const [x, y] = centre(cellNamed(entry.cell));
      caption(entry.digits.join(''), x, y + 0.36 * UNIT, g);
    }],
  ];
  const OUTSIDE = ['littlekillersum', 'sandwichsum', 'xsum', 'skyscraper'];

  // The rules of the kind `key` in a document, as [index, entry], indexed as the API names
  // them: a true flag is index 0, an array's entries go by their place in it, and a cell
  // field (`parity`; `givenPencilMarks`, a rule on a cell that is not a given) by the
  // cell's index, its entry naming the cell.
  function rulesOf(doc, key) {
    const name = (index) => `R${Math.floor(index / doc.size) + 1}C${(index % doc.size) + 1}`;
    if (key === 'parity') {
      return docCells(doc).flatMap((cell, index) => (['Odd', 'Even'].includes(cell.parity)
        ? [[index, { cell: name(index), odd: cell.parity === 'Odd' }]] : []));
    }
    if (key === 'givenPencilMarks') {
      return docCells(doc).flatMap((cell, index) => (cell.given !== true && Array.isArray(cell.givenPencilMarks) && cell.givenPencilMarks.length
        ? [[index, { cell: name(index), digits: cell.givenPencilMarks }]] : []));
    }
    if (doc[key] === true) return [[0, {}]];
    return entries(doc, key).map((entry, index) => [index, entry || {}]);
  }

  // What the rules without a picture say, for the legend.
  const FLAGS = {
    antiknight: 'Anti-knight: cells a knight’s move apart hold different digits.',
    antiking: 'Anti-king: cells a king’s move apart hold different digits.',
    disjointgroups: 'Disjoint groups: cells at the same place in their regions hold different digits.',
    nonconsecutive: 'Non-consecutive: neighbouring cells never hold consecutive digits.',
  };
  const NEGATIVES = {
    difference: 'Every white dot is shown: neighbours without one are not consecutive.',
    ratio: 'Every black dot is shown: neighbours without one are not in a 1:2 ratio.',
    xv: 'Every X and V is shown: neighbours without one add up to neither 10 nor 5.',
    sum: 'Every sum dot is shown.',
  };

  // The lines between cells of different regions (thick on the board).
  function regionBorders(size, regions) {
    const region = (row, col) => regions[row * size + col];
    const borders = [];
    range(size).forEach((row) => range(size).forEach((col) => {
      if (col + 1 < size && region(row, col) !== region(row, col + 1)) borders.push(pathOf([[(col + 1) * UNIT, row * UNIT], [(col + 1) * UNIT, (row + 1) * UNIT]]));
      if (row + 1 < size && region(row, col) !== region(row + 1, col)) borders.push(pathOf([[col * UNIT, (row + 1) * UNIT], [(col + 1) * UNIT, (row + 1) * UNIT]]));
    }));
    return borders.join('');
  }

  // The drawing of a board of `size` with `regions`, and of the rules of `doc` (if any).
  function drawing(size, regions, doc) {
    const root = document.createElementNS(SVG, 'svg');
    root.setAttribute('class', 'drawing');
    root.setAttribute('viewBox', `0 0 ${size * UNIT} ${size * UNIT}`);
    root.setAttribute('aria-hidden', 'true');
    const layer = (drawers) => drawers.forEach(([key, draw]) => rulesOf(doc, key).forEach(([index, entry]) => {
      draw(entry, svg('g', { 'data-rule': `${key} ${index}` }, root), size);
    }));
    if (doc) layer(UNDER);
    svg('path', { class: 'region-borders', d: regionBorders(size, regions) }, root);
    if (doc) layer(OVER);
    return root;
  }

  // Whether the document has clues outside the grid, which need a margin round the board.
  const hasOutsideClues = (doc) => OUTSIDE.some((key) => entries(doc, key).length);

  // The legend: a line for each rule without a picture (flags and negative constraints).
  function legendItems(doc) {
    const items = Object.keys(FLAGS).flatMap((key) => rulesOf(doc, key).map(([index]) => [`${key} ${index}`, FLAGS[key]]));
    rulesOf(doc, 'negative').forEach(([index, name]) => items.push([`negative ${index}`, NEGATIVES[name] || `Negative constraint: ${name}.`]));
    return items.map(([rule, sentence]) => {
      const item = document.createElement('li');
      item.dataset.rule = rule;
      item.textContent = sentence;
      return item;
    });
  }

  // --- The board ------------------------------------------------------------------------

  function emptyMarkup() {
    return {
      cells: Object.fromEntries(HIGHLIGHTS.map((name) => [name, new Set()])),
      placements: new Map(),
      eliminations: new Map(),
      rules: new Set(), // the `data-rule` names of the rules to highlight
    };
  }

  // An empty board of `size`, or the board of a variant puzzle ({ source, doc }) with its
  // givens and the drawing of its rules.
  function buildBoard(size, variant = null) {
    const doc = variant && variant.doc;
    const regions = doc ? regionsOf(doc) : defaultRegions(size);
    state.size = size;
    state.variant = variant;
    state.houses = housesOf(size, regions, doc);
    state.peers = peersOf(state.houses, size * size);
    state.givens = doc ? givensOf(doc) : Array(size * size).fill(0);
    state.values = [...state.givens];
    state.marks = ui.pencil.checked ? candidates(state.values) : null;
    state.hiddenMarks = null;
    state.markup = emptyMarkup();
    ui.size.value = String(size);
    ui.board.className = doc && hasOutsideClues(doc) ? 'board outside' : 'board';
    ui.board.style.setProperty('--size', size);
    ui.board.style.setProperty('--marks', Math.ceil(Math.sqrt(size)));
    ui.board.setAttribute('aria-label', doc ? `Board: ${describe(doc)}` : `Board, ${size} by ${size}`);
    ui.board.replaceChildren();
    inputs = state.values.map((_, index) => {
      const cell = document.createElement('div');
      cell.className = 'cell';
      const input = document.createElement('input');
      input.autocomplete = 'off';
      input.inputMode = size > 9 ? 'text' : 'numeric';
      input.tabIndex = index === 0 ? 0 : -1; // one tab stop for the board; arrows move
      input.dataset.row = Math.floor(index / size);
      input.dataset.col = index % size;
      const marks = document.createElement('div');
      marks.className = 'marks';
      marks.setAttribute('aria-hidden', 'true');
      for (let k = 0; k < size; k += 1) marks.append(document.createElement('span'));
      cell.append(input, marks);
      ui.board.append(cell);
      return input;
    });
    ui.board.append(drawing(size, regions, doc));
    ui.legend.replaceChildren(...(doc ? legendItems(doc) : []));
    ui.legend.hidden = !ui.legend.children.length;
    fitGenerateControls();
  }

  // What a screen reader says of a cell.
  function cellLabel(index) {
    const notes = [];
    if (state.givens[index]) notes.push('given');
    const { cells, placements, eliminations } = state.markup;
    if (placements.has(index)) notes.push(`hint: ${symbol(placements.get(index))} goes here`);
    if (cells.conflict.has(index)) notes.push('clashes');
    if (cells.mistake.has(index)) notes.push('mistake');
    if (eliminations.has(index)) notes.push(`hint: not ${bitsOf(eliminations.get(index)).map(symbol).join(' ')}`);
    const marks = shownMarks();
    if (marks && !state.values[index]) notes.push(`marks ${bitsOf(marks[index]).map(symbol).join(' ') || 'none'}`);
    const row = Math.floor(index / state.size) + 1;
    const col = (index % state.size) + 1;
    return [`Row ${row}, column ${col}`, ...notes].join(', ');
  }

  // The marks on the board: the engine's true candidates while they are shown, else the
  // player's pencil marks.
  const shownMarks = () => (state.trueCandidates ? state.trueCandidates.masks : state.marks);

  function render() {
    const { cells, placements, eliminations, rules } = state.markup;
    const marks = shownMarks();
    inputs.forEach((input, index) => {
      const cell = input.parentElement;
      const value = state.values[index];
      input.value = value ? symbol(value) : '';
      input.readOnly = Boolean(state.givens[index]) && !ui.editGivens.checked;
      input.placeholder = placements.has(index) ? symbol(placements.get(index)) : '';
      input.setAttribute('aria-label', cellLabel(index));
      cell.classList.toggle('given', Boolean(state.givens[index]));
      HIGHLIGHTS.forEach((name) => cell.classList.toggle(name, cells[name].has(index)));
      const struck = eliminations.get(index) || 0;
      const shown = value ? 0 : (marks ? marks[index] : 0) | struck;
      [...cell.lastChild.children].forEach((span, k) => {
        span.textContent = shown & bit(k + 1) ? symbol(k + 1) : '';
        span.classList.toggle('eliminated', Boolean(struck & bit(k + 1)));
      });
    });
    document.querySelectorAll('[data-rule]').forEach((element) => {
      element.classList.toggle('rule-highlight', rules.has(element.dataset.rule));
    });
  }

  function say(message) {
    ui.status.textContent = message;
  }

  function showError(message) {
    ui.error.textContent = message;
    ui.error.hidden = !message;
  }

  // Forgets what the last answer highlighted (and any step shown).
  function clearMarkup() {
    state.markup = emptyMarkup();
    state.step = null;
    ui.apply.hidden = true;
  }

  function showStep(step) {
    const { cells, placements, eliminations, rules } = state.markup;
    step.houses.forEach(({ unit, index }) => houseCells(unit, index).forEach((cell) => cells.house.add(cell)));
    step.cells.forEach((cell) => cells.pattern.add(indexOf(cell)));
    step.placements.forEach((placement) => {
      cells.placement.add(indexOf(placement));
      placements.set(indexOf(placement), placement.digit);
    });
    step.eliminations.forEach((elimination) => {
      eliminations.set(indexOf(elimination), maskOf(elimination.digits));
    });
    if (step.rule) rules.add(`${step.rule.kind} ${step.rule.index}`);
    state.step = step;
  }

  // --- Board changes, with undo ---------------------------------------------------------

  function snapshot() {
    return { size: state.size, variant: state.variant, givens: [...state.givens], values: [...state.values], marks: state.marks && [...state.marks] };
  }

  // Whether two snapshots are the same board: the same variant puzzle object, and equal
  // digits and marks.
  const sameBoard = (a, b) => a.variant === b.variant
    && JSON.stringify({ ...a, variant: null }) === JSON.stringify({ ...b, variant: null });

  function change(update) {
    const before = snapshot();
    endPath();
    clearMarkup();
    update();
    if (!sameBoard(before, snapshot())) {
      state.history.push(before);
      if (state.history.length > 500) state.history.shift();
    }
    render();
    refreshTrueCandidates();
  }

  function undo() {
    const last = state.history.pop();
    if (!last) return;
    endPath();
    clearMarkup();
    if (last.size !== state.size || last.variant !== state.variant) buildBoard(last.size, last.variant);
    Object.assign(state, { givens: last.givens, values: last.values, marks: last.marks });
    ui.pencil.checked = Boolean(last.marks);
    render();
    refreshTrueCandidates();
  }

  // The digits of the puzzle: its givens, or the digits typed when it has none.
  const puzzleDigits = () => (state.givens.some(Boolean) ? state.givens : state.values);

  // The puzzle with `digits` as its givens, as the request field `gridField` (`grid`, or
  // `puzzle` for a hint) or, for a variant, as `fpuzzles`: the text as loaded, or its
  // document with the givens changed when they differ.
  function puzzleField(digits, gridField = 'grid') {
    const { variant } = state;
    if (!variant) return { [gridField]: text(digits) };
    const loaded = givensOf(variant.doc);
    const same = digits.every((digit, index) => digit === loaded[index]);
    return { fpuzzles: same ? variant.source : withGivens(variant.doc, digits) };
  }

  // Makes `digits` the puzzle: its givens, and the board's digits.
  function fixPuzzle(digits) {
    state.givens = [...digits];
    state.values = [...digits];
    if (state.marks) state.marks = candidates(state.values);
  }

  // A classic puzzle in string notation, on a board of its size.
  function setPuzzle(puzzle) {
    const size = Math.round(Math.sqrt(puzzle.length));
    if (size !== state.size || state.variant) buildBoard(size);
    fixPuzzle([...puzzle].map(digitOf));
  }

  // Opens a variant puzzle: `source` is the text to send as `fpuzzles`, `doc` its document.
  function openVariant(source, doc) {
    change(() => buildBoard(doc.size, { source, doc }));
    say(`Loaded ${describe(doc)}, ${state.givens.filter(Boolean).length} givens.`);
  }

  function enter(index, digit) {
    if (state.givens[index] && !ui.editGivens.checked) return;
    change(() => {
      if (ui.editGivens.checked) {
        state.givens[index] = digit;
        state.values[index] = digit;
      } else if (state.marks && !state.values[index] && digit) {
        state.marks[index] ^= bit(digit);
      } else {
        state.values[index] = digit;
      }
      if (state.marks && !state.values[index] && !digit) state.marks[index] = candidates(state.values)[index];
    });
  }

  function applyStep(step) {
    step.placements.forEach((placement) => {
      state.values[indexOf(placement)] = placement.digit;
    });
    if (state.marks) {
      const left = candidates(state.values);
      state.marks = state.marks.map((mask, index) => mask & left[index]);
      step.eliminations.forEach((elimination) => {
        state.marks[indexOf(elimination)] &= ~maskOf(elimination.digits);
      });
    }
  }

  // --- The API --------------------------------------------------------------------------

  // While calls are under way, the buttons that start calls wait.
  let callsUnderWay = 0;
  function setBusy(busy) {
    callsUnderWay += busy ? 1 : -1;
    document.body.classList.toggle('busy', callsUnderWay > 0);
    document.querySelectorAll('.controls button').forEach((button) => { button.disabled = callsUnderWay > 0; });
  }

  const quote = (json) => `'${json.replaceAll("'", "'\\''")}'`;

  // POSTs `body` to the endpoint `path` (relative to the page, so a path prefix is kept),
  // shows the call and its answer, and gives the answer, or null after showing the error.
  async function call(path, body) {
    const url = new URL(path, document.baseURI).href;
    const json = JSON.stringify(body);
    ui.curl.textContent = `curl --json ${quote(json)} ${url}`;
    ui.answer.textContent = '';
    ui.answerStatus.textContent = '(waiting)';
    showError('');
    setBusy(true);
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json });
      const answer = await response.json().catch(() => null);
      ui.answerStatus.textContent = `${response.status} ${response.statusText}`.trim();
      ui.answer.textContent = answer ? JSON.stringify(answer, null, 2) : '';
      if (response.ok && answer) return answer;
      say('');
      if (answer && answer.conflicts && answer.conflicts.length) {
        clearMarkup();
        showConflicts(answer.conflicts);
        render();
        showError(`${answer.title}: ${conflictSentence(answer.conflicts)}`);
      } else {
        const problem = answer && typeof answer.title === 'string' && typeof answer.detail === 'string';
        showError(problem ? `${answer.title}: ${answer.detail}.` : `The service answered ${response.status}.`);
      }
    } catch (error) {
      ui.answerStatus.textContent = '(no answer)';
      showError(`The service did not answer (${error.message}). Is it running?`);
    } finally {
      setBusy(false);
    }
    return null;
  }

  // The symbols of a grid as the API reads them: whitespace, `|` and the border lines of a
  // grid drawn as on the forums (`------+-------+------`) aside.
  const isBorderLine = (line) => /^\s*[-=+|][\s|+=-]*$/.test(line);
  const symbolsOf = (grid) => {
    const lines = grid.trim().split('\n');
    const rows = lines.length > 1 ? lines.filter((line) => !isBorderLine(line)) : lines;
    return rows.join('').replace(/[\s|]/g, '');
  };

  // Loads pasted text: a classic grid once the API has read it, or a variant puzzle drawn
  // at once and then checked by the API, which says in words what it cannot read.
  async function load(pasted) {
    if (isVariantText(pasted)) {
      const doc = documentOf(pasted);
      if (doc) openVariant(pasted, doc);
      const answer = await call('validate', { fpuzzles: pasted });
      if (!answer) return;
      if (!doc) {
        showError('The service reads this puzzle, but this page cannot draw it.');
        return;
      }
      showBroken(answer.broken || []);
      render();
      if (!answer.valid) say(brokenSentence(answer.broken || []));
      return;
    }
    const answer = await call('validate', { grid: pasted });
    if (!answer) return;
    const puzzle = symbolsOf(pasted);
    if (puzzle.length === 625) {
      showError('This board shows 4×4, 9×9 and 16×16 grids; send 25×25 grids to the API directly.');
      return;
    }
    change(() => {
      setPuzzle(puzzle);
      showConflicts(answer.conflicts);
    });
    say(answer.valid ? `Loaded a puzzle with ${state.givens.filter(Boolean).length} givens.` : conflictSentence(answer.conflicts));
  }

  function showConflicts(conflicts) {
    conflicts.forEach((conflict) => conflict.cells.forEach((cell) => state.markup.cells.conflict.add(indexOf(cell))));
  }

  function conflictSentence(conflicts) {
    const first = conflicts[0];
    const more = conflicts.length > 1 ? ` (and ${conflicts.length - 1} more)` : '';
    return `${symbol(first.digit)} stands twice in ${first.unit} ${first.index + 1}: ${first.cells.map(indexOf).map(cellName).join(', ')}${more}.`;
  }

  // Marks the cells and the drawn rules that a variant grid breaks (`broken` of /validate).
  function showBroken(broken) {
    broken.forEach(({ kind, index, cells }) => {
      cells.forEach((cell) => state.markup.cells.conflict.add(indexOf(cell)));
      state.markup.rules.add(`${kind} ${index}`);
    });
  }

  // The first rule broken, in words.
  function brokenSentence(broken) {
    const first = broken[0];
    const more = broken.length > 1 ? ` (and ${broken.length - 1} more)` : '';
    return `The digits break ${first.kind} ${first.index + 1}: ${first.cells.map(indexOf).map(cellName).join(', ')}${more}.`;
  }

  async function solve() {
    const digits = puzzleDigits();
    const answer = await call('solve', puzzleField(digits));
    if (!answer) return;
    change(() => {
      fixPuzzle(digits);
      [...answer.solution].forEach((char, index) => {
        if (!state.givens[index]) state.markup.cells.solved.add(index);
        state.values[index] = digitOf(char);
      });
    });
    say(`Solved with ${answer.stats.guesses} guesses in ${answer.stats.elapsed_us} µs.`);
  }

  async function check() {
    const answer = await call('validate', { ...puzzleField(state.values), solvable: true });
    if (!answer) return;
    endPath();
    clearMarkup();
    showConflicts(answer.conflicts);
    showBroken(answer.broken || []);
    render();
    const rules = state.variant ? 'every rule holds' : 'every row, column and box holds each digit once';
    if (!answer.valid) say(answer.broken ? brokenSentence(answer.broken) : conflictSentence(answer.conflicts));
    else if (answer.solved) say(`Solved: ${rules}.`);
    else if (!answer.solvable) say('No clashes, but no solution from here: a digit is wrong.');
    else say(answer.unique ? 'No clashes so far; one solution from here.' : 'No clashes so far; several solutions from here.');
  }

  async function rate() {
    const answer = await call('rate', puzzleField(puzzleDigits()));
    if (!answer) return;
    if (!answer.hardest) return say('Nothing to rate: the puzzle has no blank cell.');
    const steps = answer.steps === 1 ? '1 step' : `${answer.steps} steps`;
    say(`Rating ${answer.se.toFixed(1)} (${answer.level}); hardest step: ${answer.hardest.replaceAll('_', ' ')}; ${steps}.`);
  }

  async function hint() {
    const body = { ...puzzleField(puzzleDigits(), 'puzzle'), grid: text(state.values) };
    if (state.marks) {
      body.candidates = state.values.map((value, index) => (value ? null : bitsOf(state.marks[index]).map(symbol).join('')));
    }
    const answer = await call('hint', body);
    if (!answer) return;
    endPath();
    clearMarkup();
    if (answer.solved) {
      say('Solved: there is no next step.');
    } else if (answer.stalled) {
      say('No step applies from here: the logic stalls.');
    } else if (answer.mistakes) {
      answer.mistakes.forEach((mistake) => state.markup.cells.mistake.add(indexOf(mistake)));
      say(answer.mistakes.map((mistake) => (mistake.kind === 'wrong_digit'
        ? `${cellName(indexOf(mistake))}: ${symbol(mistake.digit)} is not the solution's digit.`
        : `${cellName(indexOf(mistake))}: your pencil marks removed the solution's digit.`)).join(' '));
    } else {
      showStep(answer.step);
      ui.apply.hidden = false;
      say(answer.step.text);
    }
    render();
  }

  async function explain() {
    const digits = puzzleDigits();
    const answer = await call('explain', puzzleField(digits));
    if (!answer) return;
    change(() => fixPuzzle(digits));
    state.path = { steps: answer.steps, at: 0, marks: Boolean(state.marks), stalled: Boolean(answer.stalled) };
    ui.path.hidden = false;
    showPathStep();
  }

  // Shows the board before step `at` of the path, with that step highlighted.
  function showPathStep() {
    const { steps, at, stalled } = state.path;
    clearMarkup();
    state.values = [...state.givens];
    state.marks = state.path.marks ? candidates(state.values) : null;
    steps.slice(0, at).forEach(applyStep);
    if (at < steps.length) {
      showStep(steps[at]);
      say(steps[at].text);
    } else {
      say(stalled ? `The logic stalls after ${steps.length} steps: no step applies.` : `Solved in ${steps.length} steps.`);
    }
    ui.pathCount.textContent = at < steps.length ? `Step ${at + 1} of ${steps.length}` : 'Done';
    $('previous').disabled = at === 0;
    $('next').disabled = at === steps.length;
    render();
  }

  function movePath(by) {
    state.path.at = Math.max(0, Math.min(state.path.steps.length, state.path.at + by));
    showPathStep();
  }

  function endPath() {
    state.path = null;
    ui.path.hidden = true;
  }

  // A whole number typed into `input`, or null when it is empty; undefined (after saying
  // why) when it is not one.
  function wholeNumber(input, what) {
    const typed = input.value.trim();
    if (!typed) return null;
    if (/^\d+$/.test(typed) && Number.isSafeInteger(Number(typed))) return Number(typed);
    showError(`${what} is a whole number from 0 to 9007199254740991, or empty.`);
    return undefined;
  }

  async function generate() {
    const kind = ui.variant.value;
    const body = { size: state.size };
    if (kind !== 'classic') body.variant = kind;
    if (!ui.level.disabled && ui.level.value) body.level = ui.level.value;
    if (!ui.symmetry.disabled && ui.symmetry.value !== 'none') body.symmetry = ui.symmetry.value;
    const seed = wholeNumber(ui.seed, 'The seed');
    const maxGivens = ui.maxGivens.disabled ? null : wholeNumber(ui.maxGivens, 'Max givens');
    if (seed === undefined || maxGivens === undefined) return;
    if (seed !== null) body.seed = seed;
    if (maxGivens !== null) body.max_givens = maxGivens;
    const answer = await call('generate', body);
    if (!answer) return;
    const [puzzle] = answer.puzzles;
    if (puzzle.fpuzzles) {
      const doc = documentOf(puzzle.fpuzzles);
      if (!doc) return showError('The service made a puzzle that this page cannot draw.');
      openVariant(puzzle.fpuzzles, doc);
    } else {
      change(() => setPuzzle(puzzle.puzzle));
    }
    const what = kind === 'classic' ? '' : ` ${kind}`;
    const rating = puzzle.se === undefined ? '' : ` (${puzzle.se.toFixed(1)})`;
    const level = puzzle.level ? `, ${puzzle.level}${rating}` : '';
    say(`Generated${what}: ${state.givens.filter(Boolean).length} givens${level}, seed ${puzzle.seed}.`);
  }

  // Which sizes, levels, symmetries and caps the kind of puzzle chosen is made with:
  // classic puzzles in 4×4, 9×9 and 16×16 (levels on 9×9 only), variants in 4×4 to 9×9.
  function fitGenerateControls() {
    const classic = ui.variant.value === 'classic';
    [...ui.size.options].forEach((option) => {
      const size = Number(option.value);
      option.disabled = classic ? !CLASSIC_SIZES.includes(size) : size > 9;
    });
    ui.level.disabled = classic && state.size !== 9;
    ui.symmetry.disabled = !classic;
    ui.maxGivens.disabled = classic;
  }

  // The engine's true candidates of the puzzle (POST /solve with `true_candidates`), shown
  // as the marks while the box is ticked, and fetched again when the puzzle changes.
  async function refreshTrueCandidates() {
    const on = ui.trueCandidates.checked;
    if (!on && !state.trueCandidates) return;
    const puzzle = puzzleField(puzzleDigits());
    const key = JSON.stringify(puzzle);
    if (state.trueCandidates && (!on || state.trueCandidates.key !== key)) {
      state.trueCandidates = null;
      render();
    }
    if (!on || state.trueCandidates) return;
    const answer = await call('solve', { ...puzzle, true_candidates: true });
    const current = JSON.stringify(puzzleField(puzzleDigits()));
    if (!answer || !ui.trueCandidates.checked || current !== key) return;
    state.trueCandidates = { key, masks: answer.true_candidates.flat().map(maskOf) };
    render();
  }

  // --- Keyboard, pointer and paste ------------------------------------------------------

  function moveFocus(input, key) {
    const row = Number(input.dataset.row);
    const col = Number(input.dataset.col);
    const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
    const clamp = (n) => Math.max(0, Math.min(state.size - 1, n));
    inputs[clamp(row + dr) * state.size + clamp(col + dc)].focus();
  }

  const cellOf = (input) => indexOf({ row: Number(input.dataset.row), col: Number(input.dataset.col) });

  // A symbol typed into a cell: a digit fills it (or toggles a mark), blank or 0 clears it.
  function typeInto(input, char) {
    if (!char || digitOf(char) || char === '0' || char === '.') enter(cellOf(input), digitOf(char));
  }

  // The board is one tab stop: the cell last focused.
  ui.board.addEventListener('focusin', (event) => {
    inputs.forEach((input) => { input.tabIndex = input === event.target ? 0 : -1; });
  });

  // Ctrl+Z undoes anywhere on the page but in a text field of its own.
  document.addEventListener('keydown', (event) => {
    const ownText = event.target instanceof HTMLInputElement && !ui.board.contains(event.target);
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z' && !ownText) {
      event.preventDefault();
      undo();
    }
  });

  ui.board.addEventListener('keydown', (event) => {
    const input = event.target;
    if (event.key.startsWith('Arrow')) {
      event.preventDefault();
      moveFocus(input, event.key);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      typeInto(input, '');
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      typeInto(input, event.key);
    }
  });

  // Virtual keyboards send no usable keydown: take the typed symbol from the input event.
  ui.board.addEventListener('input', (event) => {
    render();
    if (event.inputType.startsWith('delete')) typeInto(event.target, '');
    else if (event.data && !event.isComposing) typeInto(event.target, event.data.slice(-1));
  });

  // A whole puzzle pasted anywhere on the board loads it; one symbol goes into the cell.
  ui.board.addEventListener('paste', (event) => {
    event.preventDefault();
    const pasted = event.clipboardData.getData('text').trim();
    if (!pasted) return;
    if (pasted.length > 1) load(pasted);
    else typeInto(event.target, pasted);
  });

  $('load-form').addEventListener('submit', (event) => {
    event.preventDefault();
    load(ui.puzzleText.value.trim());
  });
  $('solve').addEventListener('click', solve);
  $('check').addEventListener('click', check);
  $('rate').addEventListener('click', rate);
  $('hint').addEventListener('click', hint);
  $('explain').addEventListener('click', explain);
  $('generate').addEventListener('click', generate);
  $('undo').addEventListener('click', undo);
  $('clear').addEventListener('click', () => change(() => buildBoard(state.size)));
  $('previous').addEventListener('click', () => movePath(-1));
  $('next').addEventListener('click', () => movePath(1));
  ui.apply.addEventListener('click', () => {
    const { step } = state;
    if (step) change(() => applyStep(step));
  });
  ui.size.addEventListener('change', () => change(() => buildBoard(Number(ui.size.value))));
  // A kind that is not made in the board's size starts an empty 9×9 board.
  ui.variant.addEventListener('change', () => {
    fitGenerateControls();
    const chosen = ui.size.selectedOptions[0];
    if (!chosen || chosen.disabled) change(() => buildBoard(9));
  });
  // Marks turned off are kept, and come back (less what digits placed since rule out).
  ui.pencil.addEventListener('change', () => {
    const on = ui.pencil.checked;
    change(() => {
      const left = candidates(state.values);
      if (on) state.marks = state.hiddenMarks ? left.map((mask, i) => mask & state.hiddenMarks[i]) : left;
      state.hiddenMarks = on ? null : state.marks;
      if (!on) state.marks = null;
    });
  });
  ui.editGivens.addEventListener('change', render);
  ui.trueCandidates.addEventListener('change', refreshTrueCandidates);

  // `?load=<f-puzzles lz-string text>` opens that puzzle, as f-puzzles' own links do. The
  // text is read raw, so a `+` stays a plus (percent-encoding is undone with the rest).
  function openLink() {
    const load = window.location.search.slice(1).split('&').find((pair) => pair.startsWith('load='));
    if (!load) return;
    const source = load.slice('load='.length);
    const doc = documentOf(source);
    if (doc) openVariant(source, doc);
    else showError('The link’s puzzle cannot be read: `load` holds no f-puzzles document as lz-string text.');
  }

  buildBoard(9);
  render();
  openLink();
})();
