// Last script of the page: when everything was parsed and first drawn, in
// milliseconds since the navigation started (the acceptance tests read it).
document.body.setAttribute('data-load-ms', performance.now().toFixed(1));
