// Keyboard arrows step through a replay: the page's own previous/next links (rel="prev"/"next"),
// so the same steps work without this script.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) {
    return;
  }
  const rel = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
  const link = rel && document.querySelector(`a[rel~="${rel}"], a[data-rel="${rel}"]`);
  if (link) {
    event.preventDefault();
    window.location.href = link.href;
  }
});
