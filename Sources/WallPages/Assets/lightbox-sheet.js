// A tile clicked opens large in the page; ← → move through the tiles shown, Esc closes.
const dialog = document.querySelector('dialog'), large = dialog.querySelector('img');
let shown = [], at = 0;
// A stack's tile shows its pictures in turn: a button each, ↑ ↓ between them.
let member = 0;
function show(i, m = 0) {
  at = (i + shown.length) % shown.length;
  const link = shown[at];
  const views = link.dataset.stack ? link.dataset.stack.split(' ') : [link.dataset.view];
  const originals = link.dataset.stack ? link.dataset.originals.split(' ') : [link.href];
  member = (m + views.length) % views.length;
  const name = link.dataset.stack
    ? decodeURIComponent(originals[member].split('/').pop()) : link.dataset.name;
  large.src = views[member];
  large.alt = name;
  dialog.querySelector('.name').textContent = name;
  dialog.querySelector('.original').href = originals[member];
  dialog.querySelector('.count').textContent = (at + 1) + ' of ' + shown.length;
  const stack = dialog.querySelector('.stack');
  stack.replaceChildren();
  if (views.length > 1) {
    stack.append(' · stack: ');
    views.forEach((_, k) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = k + 1;
      button.setAttribute('aria-label', 'picture ' + (k + 1) + ' of the stack of ' + views.length);
      if (k === member) button.setAttribute('aria-current', 'true');
      button.addEventListener('click', () => show(at, k));
      stack.append(button);
    });
  }
}
document.addEventListener('click', event => {
  const link = event.target.closest('.wall a');
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  shown = [...document.querySelectorAll('.wall a')].filter(a => a.offsetParent !== null);
  show(shown.indexOf(link));
  dialog.showModal();
});
dialog.querySelector('.previous').addEventListener('click', () => show(at - 1));
dialog.querySelector('.next').addEventListener('click', () => show(at + 1));
dialog.querySelector('.close').addEventListener('click', () => dialog.close());
dialog.addEventListener('keydown', event => {
  if (event.key === 'ArrowLeft') show(at - 1); else if (event.key === 'ArrowRight') show(at + 1);
  else if (event.key === 'ArrowDown') show(at, member + 1); else if (event.key === 'ArrowUp') show(at, member - 1);
});
