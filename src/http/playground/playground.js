// The playground: a board that calls the service's own endpoints and shows each call.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const ui = {
    board: $('board'), status: $('status'), error: $('error'), path: $('path'),
    pathCount: $('path-count'), apply: $('apply'), curl: $('curl'), answer: $('answer'),
    answerStatus: $('answer-status'), size: $('size'), pencil: $('pencil'),
    editGivens: $('edit-givens'), level: $('level'), symmetry: $('symmetry'), seed: $('seed'),
    puzzleText: $('puzzle-text'),
  };
  const HIGHLIGHTS = ['house', 'pattern', 'placement', 'conflict', 'mistake', 'solved'];

  // The board: digits are numbers (0 blank), pencil marks bit masks (bit d-1 for digit d).
  const state = {
    size: 9, box: 3, givens: [], values: [], marks: null, history: [],
    hiddenMarks: null, // the marks kept while pencil marks are off
    markup: null, // what the last answer highlights
    step: null, // the step a hint or the path shows, for "Apply"
    path: null, // an explanation being stepped through: { steps, at }
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

  function houseCells(unit, index) {
    const { size, box } = state;
    const all = [...Array(size).keys()];
    if (unit === 'row') return all.map((col) => index * size + col);
    if (unit === 'column') return all.map((row) => row * size + index);
    const top = Math.floor(index / box) * box;
    const left = (index % box) * box;
    return all.map((k) => (top + Math.floor(k / box)) * size + left + (k % box));
  }

  // The candidates the digits leave in every empty cell.
  function candidates(values) {
    const { size, box } = state;
    const used = (index) => {
      const row = Math.floor(index / size);
      const col = index % size;
      const boxIndex = Math.floor(row / box) * box + Math.floor(col / box);
      const peers = [...houseCells('row', row), ...houseCells('column', col), ...houseCells('box', boxIndex)];
      return maskOf(peers.map((peer) => values[peer]).filter(Boolean));
    };
    const full = (1 << size) - 1;
    return values.map((value, index) => (value ? 0 : full & ~used(index)));
  }

  // --- Drawing ------------------------------------------------------------------------

  function emptyMarkup() {
    return { cells: Object.fromEntries(HIGHLIGHTS.map((name) => [name, new Set()])), placements: new Map(), eliminations: new Map() };
  }

  function buildBoard(size) {
    state.size = size;
    state.box = Math.round(Math.sqrt(size));
    state.givens = Array(size * size).fill(0);
    state.values = Array(size * size).fill(0);
    state.marks = ui.pencil.checked ? candidates(state.values) : null;
    state.hiddenMarks = null;
    state.markup = emptyMarkup();
    ui.board.className = `board size-${size}`;
    ui.level.disabled = size !== 9; // ratings, and so levels, are 9×9 only
    ui.board.setAttribute('aria-label', `Board, ${size} by ${size}`);
    ui.board.replaceChildren();
    inputs = state.values.map((_, index) => {
      const row = Math.floor(index / size);
      const col = index % size;
      const cell = document.createElement('div');
      cell.className = 'cell';
      if (col % state.box === state.box - 1 && col < size - 1) cell.classList.add('box-right');
      if (row % state.box === state.box - 1 && row < size - 1) cell.classList.add('box-bottom');
      const input = document.createElement('input');
      input.autocomplete = 'off';
      input.inputMode = size > 9 ? 'text' : 'numeric';
      input.tabIndex = index === 0 ? 0 : -1; // one tab stop for the board; arrows move
      input.dataset.row = row;
      input.dataset.col = col;
      const marks = document.createElement('div');
      marks.className = 'marks';
      marks.setAttribute('aria-hidden', 'true');
      for (let k = 0; k < size; k += 1) marks.append(document.createElement('span'));
      cell.append(input, marks);
      ui.board.append(cell);
      return input;
    });
  }

  function label(index) {
    const notes = [];
    if (state.givens[index]) notes.push('given');
    const { cells, placements, eliminations } = state.markup;
    if (placements.has(index)) notes.push(`hint: ${symbol(placements.get(index))} goes here`);
    if (cells.conflict.has(index)) notes.push('clashes');
    if (cells.mistake.has(index)) notes.push('mistake');
    if (eliminations.has(index)) notes.push(`hint: not ${bitsOf(eliminations.get(index)).map(symbol).join(' ')}`);
    if (state.marks && !state.values[index]) notes.push(`marks ${bitsOf(state.marks[index]).map(symbol).join(' ') || 'none'}`);
    const row = Math.floor(index / state.size) + 1;
    const col = (index % state.size) + 1;
    return [`Row ${row}, column ${col}`, ...notes].join(', ');
  }

  function render() {
    const { cells, placements, eliminations } = state.markup;
    inputs.forEach((input, index) => {
      const cell = input.parentElement;
      const value = state.values[index];
      input.value = value ? symbol(value) : '';
      input.readOnly = Boolean(state.givens[index]) && !ui.editGivens.checked;
      input.placeholder = placements.has(index) ? symbol(placements.get(index)) : '';
      input.setAttribute('aria-label', label(index));
      cell.classList.toggle('given', Boolean(state.givens[index]));
      HIGHLIGHTS.forEach((name) => cell.classList.toggle(name, cells[name].has(index)));
      const struck = eliminations.get(index) || 0;
      const shown = value ? 0 : (state.marks ? state.marks[index] : 0) | struck;
      [...cell.lastChild.children].forEach((span, k) => {
        span.textContent = shown & bit(k + 1) ? symbol(k + 1) : '';
        span.classList.toggle('eliminated', Boolean(struck & bit(k + 1)));
      });
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
    const { cells, placements, eliminations } = state.markup;
    step.houses.forEach(({ unit, index }) => houseCells(unit, index).forEach((cell) => cells.house.add(cell)));
    step.cells.forEach((cell) => cells.pattern.add(indexOf(cell)));
    step.placements.forEach((placement) => {
      cells.placement.add(indexOf(placement));
      placements.set(indexOf(placement), placement.digit);
    });
    step.eliminations.forEach((elimination) => {
      eliminations.set(indexOf(elimination), maskOf(elimination.digits));
    });
    state.step = step;
  }

  // --- Board changes, with undo ---------------------------------------------------------

  function snapshot() {
    return { size: state.size, givens: [...state.givens], values: [...state.values], marks: state.marks && [...state.marks] };
  }

  function change(update) {
    const before = snapshot();
    endPath();
    clearMarkup();
    update();
    if (JSON.stringify(before) !== JSON.stringify(snapshot())) {
      state.history.push(before);
      if (state.history.length > 500) state.history.shift();
    }
    render();
  }

  function undo() {
    const last = state.history.pop();
    if (!last) return;
    endPath();
    clearMarkup();
    if (last.size !== state.size) {
      ui.size.value = String(last.size);
      buildBoard(last.size);
    }
    Object.assign(state, { givens: last.givens, values: last.values, marks: last.marks });
    ui.pencil.checked = Boolean(last.marks);
    render();
  }

  function setPuzzle(puzzle) {
    const size = Math.round(Math.sqrt(puzzle.length));
    if (size !== state.size) {
      ui.size.value = String(size);
      buildBoard(size);
    }
    const digits = [...puzzle].map(digitOf);
    state.givens = digits;
    state.values = [...digits];
    if (state.marks) state.marks = candidates(state.values);
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

  // While a call is under way, the buttons that start calls wait.
  function setBusy(busy) {
    document.body.classList.toggle('busy', busy);
    document.querySelectorAll('.controls button').forEach((button) => { button.disabled = busy; });
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

  const puzzleText = () => text(state.givens.some(Boolean) ? state.givens : state.values);

  // The symbols of a grid as the API reads them: whitespace, `|` and the border lines of a
  // grid drawn as on the forums (`------+-------+------`) aside.
  const isBorderLine = (line) => /^\s*[-=+|][\s|+=-]*$/.test(line);
  const symbolsOf = (grid) => {
    const lines = grid.trim().split('\n');
    const rows = lines.length > 1 ? lines.filter((line) => !isBorderLine(line)) : lines;
    return rows.join('').replace(/[\s|]/g, '');
  };

  async function load(pasted) {
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

  async function solve() {
    const puzzle = puzzleText();
    const answer = await call('solve', { grid: puzzle });
    if (!answer) return;
    change(() => {
      setPuzzle(puzzle);
      [...answer.solution].forEach((char, index) => {
        if (!state.givens[index]) state.markup.cells.solved.add(index);
        state.values[index] = digitOf(char);
      });
    });
    say(`Solved with ${answer.stats.guesses} guesses in ${answer.stats.elapsed_us} µs.`);
  }

  async function check() {
    const answer = await call('validate', { grid: text(state.values), solvable: true });
    if (!answer) return;
    endPath();
    clearMarkup();
    showConflicts(answer.conflicts);
    render();
    if (!answer.valid) say(conflictSentence(answer.conflicts));
    else if (answer.solved) say('Solved: every row, column and box holds each digit once.');
    else if (!answer.solvable) say('No clashes, but no solution from here: a digit is wrong.');
    else say(answer.unique ? 'No clashes so far; one solution from here.' : 'No clashes so far; several solutions from here.');
  }

  async function rate() {
    const answer = await call('rate', { grid: puzzleText() });
    if (!answer) return;
    if (!answer.hardest) return say('Nothing to rate: the puzzle has no blank cell.');
    const steps = answer.steps === 1 ? '1 step' : `${answer.steps} steps`;
    say(`Rating ${answer.se.toFixed(1)} (${answer.level}); hardest step: ${answer.hardest.replaceAll('_', ' ')}; ${steps}.`);
  }

  async function hint() {
    const body = { puzzle: puzzleText(), grid: text(state.values) };
    if (state.marks) {
      body.candidates = state.values.map((value, index) => (value ? null : bitsOf(state.marks[index]).map(symbol).join('')));
    }
    const answer = await call('hint', body);
    if (!answer) return;
    endPath();
    clearMarkup();
    if (answer.solved) {
      say('Solved: there is no next step.');
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
    const puzzle = puzzleText();
    const answer = await call('explain', { grid: puzzle });
    if (!answer) return;
    change(() => setPuzzle(puzzle));
    state.path = { steps: answer.steps, at: 0, marks: Boolean(state.marks) };
    ui.path.hidden = false;
    showPathStep();
  }

  // Shows the board before step `at` of the path, with that step highlighted.
  function showPathStep() {
    const { steps, at } = state.path;
    clearMarkup();
    state.values = [...state.givens];
    state.marks = state.path.marks ? candidates(state.values) : null;
    steps.slice(0, at).forEach(applyStep);
    if (at < steps.length) {
      showStep(steps[at]);
      say(steps[at].text);
    } else {
      say(`Solved in ${steps.length} steps.`);
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

  async function generate() {
    const body = { size: state.size };
    if (ui.level.value && state.size === 9) body.level = ui.level.value;
    if (ui.symmetry.value !== 'none') body.symmetry = ui.symmetry.value;
    const seed = ui.seed.value.trim();
    if (seed && !(/^\d+$/.test(seed) && Number.isSafeInteger(Number(seed)))) {
      showError('The seed is a whole number from 0 to 9007199254740991, or empty for a random one.');
      return;
    }
    if (seed) body.seed = Number(seed);
    const answer = await call('generate', body);
    if (!answer) return;
    const [puzzle] = answer.puzzles;
    change(() => setPuzzle(puzzle.puzzle));
    const rating = puzzle.level ? `, ${puzzle.level} (${puzzle.se.toFixed(1)})` : '';
    say(`Generated: ${puzzle.givens} givens${rating}, seed ${puzzle.seed}.`);
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

  buildBoard(9);
  render();
})();
