document.addEventListener('keydown', event => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest('input, textarea')) return;
  const rel = { ArrowLeft: 'prev', ArrowRight: 'next', Escape: 'up' }[event.key];
  const link = rel && document.querySelector('a[rel="' + rel + '"]');
  if (link) location.href = link.href;
});
