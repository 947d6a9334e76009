const walls = JSON.parse(document.getElementById('walls').textContent);
const viewer = document.querySelector('.viewer');
const status = document.querySelector('.status');
const pages = document.querySelector('select');
let wall, scale, ox, oy, shown = new Map(), link = null, fitting = null;
walls.forEach((w, i) => pages.add(new Option('page ' + w.page + ' of ' + walls.length, i)));
pages.hidden = walls.length < 2;
function open(i) {
  wall = walls[i];
  for (const img of shown.values()) img.remove();
  shown = new Map();
  fitWidth();
}
// A wall opens as wide as the window, at its top (a tall wall fitted whole would be
// a strip of stamps); one shorter than the window is centred.
function fitWidth() {
  fitting = fitWidth;
  const r = viewer.getBoundingClientRect();
  scale = r.width / wall.width;
  ox = 0;
  oy = Math.min(0, (wall.height - r.height / scale) / 2);
  draw();
}
function fit() {
  fitting = fit;
  const r = viewer.getBoundingClientRect();
  scale = Math.min(r.width / wall.width, r.height / wall.height);
  ox = (wall.width - r.width / scale) / 2;
  oy = (wall.height - r.height / scale) / 2;
  draw();
}
function span(index, length) {
  return [Math.max(0, index * wall.tileSize - wall.overlap),
          Math.min(length, (index + 1) * wall.tileSize + wall.overlap)];
}
function levelSize(level) {
  const f = 2 ** (wall.top - level);
  return [Math.ceil(wall.width / f), Math.ceil(wall.height / f)];
}
function drawLevel(level, wanted, r) {
  const f = 2 ** (level - wall.top), [lw, lh] = levelSize(level), t = wall.tileSize;
  const c0 = Math.max(0, Math.floor(ox * f / t)), c1 = Math.min(Math.ceil(lw / t) - 1, Math.floor((ox + r.width / scale) * f / t));
  const r0 = Math.max(0, Math.floor(oy * f / t)), r1 = Math.min(Math.ceil(lh / t) - 1, Math.floor((oy + r.height / scale) * f / t));
  for (let row = r0; row <= r1; row++) for (let col = c0; col <= c1; col++) {
    const key = level + '/' + col + '_' + row;
    wanted.add(key);
    let img = shown.get(key);
    if (!img) {
      img = new Image();
      img.alt = '';
      img.src = wall.url + key + '.' + wall.ext;
      img.style.zIndex = level;
      viewer.appendChild(img);
      shown.set(key, img);
    }
    const [x0, x1] = span(col, lw), [y0, y1] = span(row, lh);
    img.style.left = ((x0 / f - ox) * scale) + 'px';
    img.style.top = ((y0 / f - oy) * scale) + 'px';
    img.style.width = ((x1 - x0) / f * scale) + 'px';
    img.style.height = ((y1 - y0) / f * scale) + 'px';
  }
}
function draw() {
  const r = viewer.getBoundingClientRect();
  const level = Math.max(0, Math.min(wall.top, wall.top + Math.ceil(Math.log2(scale * devicePixelRatio))));
  const base = Math.max(0, Math.min(level, wall.top + Math.ceil(Math.log2(Math.min(r.width / wall.width, r.height / wall.height)))));
  const wanted = new Set();
  drawLevel(base, wanted, r);
  if (level !== base) drawLevel(level, wanted, r);
  for (const [key, img] of shown) if (!wanted.has(key)) { img.remove(); shown.delete(key); }
  status.textContent = Math.round(scale * 100) + '%';
  if (link) place(link.index);
}
function zoom(factor, cx, cy) {
  const r = viewer.getBoundingClientRect();
  if (cx === undefined) { cx = r.width / 2; cy = r.height / 2; }
  const limit = Math.min(r.width / wall.width, r.height / wall.height) / 2;
  const next = Math.max(limit, Math.min(8 * devicePixelRatio, scale * factor));
  ox += cx / scale - cx / next; oy += cy / scale - cy / next; scale = next;
  fitting = null;
  draw();
}
function tileAt(x, y) {
  const b = wall.boxes;
  for (let i = 0; i < b.length; i++) {
    if (x >= b[i][0] && y >= b[i][1] && x < b[i][0] + b[i][2] && y < b[i][1] + b[i][3]) return i;
  }
  return -1;
}
function place(i) {
  const b = wall.boxes[i];
  link.style.left = ((b[0] - ox) * scale) + 'px';
  link.style.top = ((b[1] - oy) * scale) + 'px';
  link.style.width = (b[2] * scale) + 'px';
  link.style.height = (b[3] * scale) + 'px';
}
function hover(i) {
  if (i < 0) { if (link) { link.remove(); link = null; } return; }
  if (!link) {
    link = document.createElement('a');
    link.appendChild(document.createElement('span'));
    link.style.zIndex = 100;
    viewer.appendChild(link);
  }
  link.index = i;
  link.href = wall.links[i];
  link.title = wall.names[i];
  link.setAttribute('aria-label', wall.names[i]);
  link.firstChild.textContent = wall.names[i];
  place(i);
}
let drag = null;
viewer.addEventListener('pointerdown', e => {
  if (e.button !== 0) return;
  drag = { x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
});
viewer.addEventListener('pointermove', e => {
  const r = viewer.getBoundingClientRect();
  if (drag && e.pointerId === drag.id) {
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 4) {
      drag.moved = true;
      viewer.setPointerCapture(e.pointerId);
      viewer.classList.add('dragging');
    }
    if (drag.moved) {
      ox -= dx / scale; oy -= dy / scale; drag.x = e.clientX; drag.y = e.clientY; fitting = null;
      draw();
      return;
    }
  }
  hover(tileAt(ox + (e.clientX - r.left) / scale, oy + (e.clientY - r.top) / scale));
});
viewer.addEventListener('pointerup', e => {
  if (drag && drag.moved) e.preventDefault();
  viewer.classList.remove('dragging');
  setTimeout(() => { drag = null; });
});
viewer.addEventListener('click', e => { if (drag && drag.moved) e.preventDefault(); }, true);
viewer.addEventListener('wheel', e => {
  e.preventDefault();
  const r = viewer.getBoundingClientRect();
  zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002)), e.clientX - r.left, e.clientY - r.top);
}, { passive: false });
viewer.addEventListener('dblclick', e => {
  const r = viewer.getBoundingClientRect();
  zoom(e.shiftKey ? 0.5 : 2, e.clientX - r.left, e.clientY - r.top);
});
viewer.addEventListener('keydown', e => {
  const step = 80 / scale;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  if (moves[e.key]) { ox += moves[e.key][0]; oy += moves[e.key][1]; fitting = null; draw(); }
  else if (e.key === '+' || e.key === '=') zoom(1.5);
  else if (e.key === '-') zoom(1 / 1.5);
  else if (e.key === '0') fit();
  else if (e.key === 'w') fitWidth();
  else return;
  e.preventDefault();
});
for (const button of document.querySelectorAll('button[data-zoom]')) {
  button.addEventListener('click', () => {
    const kind = button.dataset.zoom;
    if (kind === 'fit') fit(); else if (kind === 'width') fitWidth(); else zoom(kind === 'in' ? 1.5 : 1 / 1.5);
  });
}
pages.addEventListener('change', () => open(Number(pages.value)));
document.querySelector('input').addEventListener('keydown', e => {
  if (e.key !== 'Enter') return;
  const text = e.target.value.trim().toLowerCase();
  if (!text) return;
  for (let w = 0; w < walls.length; w++) {
    const i = walls[w].names.findIndex(name => name.toLowerCase().includes(text));
    if (i < 0) continue;
    if (walls[w] !== wall) { pages.value = w; open(w); }
    const r = viewer.getBoundingClientRect(), b = wall.boxes[i];
    scale = Math.min(r.width / b[2], r.height / b[3]) * 0.8;
    ox = b[0] + b[2] / 2 - r.width / 2 / scale; oy = b[1] + b[3] / 2 - r.height / 2 / scale;
    fitting = null;
    draw();
    hover(i);
    return;
  }
  status.textContent = 'no image named like “' + e.target.value + '”';
});
// A window resized (a phone turned) keeps the view fitted as it was, until moved or zoomed.
addEventListener('resize', () => fitting ? fitting() : draw());
open(0);
