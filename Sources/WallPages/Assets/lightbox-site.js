const dialog = document.querySelector('dialog'), large = dialog.querySelector('img');
let shown = [], at = 0;
function show(i) {
  at = (i + shown.length) % shown.length;
  const link = shown[at];
  large.removeAttribute('srcset');
  large.src = link.dataset.view;
  if (link.dataset.view2) large.srcset = link.dataset.view + ' 1x, ' + link.dataset.view2 + ' ' + link.dataset.density;
  large.alt = link.getAttribute('aria-label');
  dialog.querySelector('.name').textContent = link.getAttribute('aria-label');
  dialog.querySelector('.open').href = link.href;
  dialog.querySelector('.count').textContent = (at + 1) + ' of ' + shown.length;
}
document.addEventListener('click', event => {
  const link = event.target.closest('.wall a');
  if (!link || !link.dataset.view || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  shown = [...document.querySelectorAll('.wall a')].filter(a => a.offsetParent !== null && a.dataset.view);
  show(shown.indexOf(link));
  dialog.showModal();
});
dialog.querySelector('.previous').addEventListener('click', () => show(at - 1));
dialog.querySelector('.next').addEventListener('click', () => show(at + 1));
dialog.querySelector('.close').addEventListener('click', () => dialog.close());
dialog.addEventListener('keydown', event => {
  if (event.key === 'ArrowLeft') show(at - 1); else if (event.key === 'ArrowRight') show(at + 1);
});
