// The players' page: draws the state the DM's laptop sends over the WebSocket. Read-only:
// nothing here sends anything to the server. Coordinates of the state are in grid cells.
"use strict";
(() => {
  const code = new URLSearchParams(location.search).get("k") || "";
  const canvas = document.getElementById("map");
  const ctx = canvas.getContext("2d");
  const banner = document.getElementById("banner");
  const order = document.getElementById("order");
  const followButton = document.getElementById("follow");
  const statusLine = document.getElementById("status");
  const fogCanvas = document.createElement("canvas");
  const MIN_SCALE = 2, MAX_SCALE = 400; // CSS pixels per cell
  const HIGHLIGHT = "#ffe066";
  const PLATE_MIN_SCALE = 16; // CSS pixels per cell below which names are left out

  let state = null, camera = null, image = null, imageVersion = -1, fogCells = null;
  let ruling = null, rulingSince = 0, rulingTimer = null; // the shown ruling, and since when
  const pictures = new Map(); // a token picture's content hash -> its Image (loaded or not)
  let follow = true;
  const view = { scale: 32, x: 0, y: 0 }; // the cell at the canvas's top-left corner
  let socket = null, retryMs = 250, revoked = false, framePending = false;
  // Read by the browser tests: when the last state was drawn, and the page's transform.
  const probe = (window.battlemapProbe = {
    states: 0, drawnState: 0, drawnAt: 0, state: null, mapDrawn: false, picturesDrawn: 0,
    rulings: 0, rulingAlpha: 0,
    cellToScreen: (x, y) => [(x - view.x) * view.scale, (y - view.y) * view.scale],
  });

  // --- the connection --------------------------------------------------------------

  function connect() {
    if (revoked) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws?k=${encodeURIComponent(code)}`);
    socket.onopen = () => { retryMs = 250; showStatus(""); };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      socket = null;
      if (event.code === 4001) {
        revoked = true;
        showStatus("The DM changed the join code: scan the new QR code.");
        return;
      }
      showStatus("Reconnecting…");
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  }

  function receive(message) {
    if (message.type === "state") {
      state = probe.state = message;
      probe.states += 1;
      fogCells = null;
      if (state.map && state.map.version !== imageVersion) loadImage(state.map.version);
      if (!state.map) { image = null; imageVersion = -1; }
      showTurn(state.turn);
      forgetPictures(state.tokens);
    } else if (message.type === "camera") {
      camera = message.camera;
      if (follow) fitCamera();
    } else if (message.type === "ruling") {
      ruling = message.ruling;
      rulingSince = performance.now();
      probe.rulings += 1;
    }
    redraw();
  }

  function loadImage(version) {
    imageVersion = version;
    const next = new Image();
    next.onload = () => { if (imageVersion === version) { image = next; redraw(); } };
    next.src = `/map?k=${encodeURIComponent(code)}&v=${version}`;
  }

  // Token pictures: fetched once by content hash, kept while a token shows them.
  function picture(name) {
    let found = pictures.get(name);
    if (!found) {
      found = new Image();
      found.onload = () => redraw();
      found.src = `/image?k=${encodeURIComponent(code)}&n=${encodeURIComponent(name)}`;
      pictures.set(name, found);
    }
    return found.complete && found.naturalWidth > 0 ? found : null;
  }

  function forgetPictures(tokens) {
    const shown = new Set(tokens.map((token) => token.image).filter(Boolean));
    for (const name of pictures.keys()) if (!shown.has(name)) pictures.delete(name);
  }

  function showStatus(text) {
    statusLine.textContent = text;
    statusLine.className = text ? "" : "ok";
  }

  function showTurn(turn) {
    banner.hidden = !turn || turn.round === null;
    if (turn && turn.round !== null) {
      banner.textContent = `Round ${turn.round}` + (turn.acting ? ` — ${turn.acting}'s turn` : "");
    }
    order.hidden = !turn || turn.order.length === 0;
    if (turn) order.textContent = turn.order.join("  ›  ");
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && socket === null) { retryMs = 250; connect(); }
  });

  // --- looking around: drag, pinch, wheel; "Follow the table" snaps back ------------------

  function fitCamera() {
    if (!camera) return;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    view.scale = Math.min(w / camera.width, h / camera.height);
    view.x = camera.x - (w / view.scale - camera.width) / 2;
    view.y = camera.y - (h / view.scale - camera.height) / 2;
  }

  function setFollow(on) {
    follow = on;
    followButton.hidden = on;
    if (on) fitCamera();
    redraw();
  }

  function zoomAround(px, py, factor) {
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, view.scale * factor));
    const cx = view.x + px / view.scale, cy = view.y + py / view.scale;
    view.scale = scale;
    view.x = cx - px / scale;
    view.y = cy - py / scale;
  }

  const pointers = new Map();
  canvas.addEventListener("pointerdown", (e) => {
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  canvas.addEventListener("pointermove", (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    if (pointers.size === 1) {
      view.x -= (e.clientX - last.x) / view.scale;
      view.y -= (e.clientY - last.y) / view.scale;
    } else if (pointers.size === 2) {
      const [other] = [...pointers].filter(([id]) => id !== e.pointerId).map(([, p]) => p);
      const before = Math.hypot(last.x - other.x, last.y - other.y);
      const after = Math.hypot(e.clientX - other.x, e.clientY - other.y);
      const midX = (e.clientX + other.x) / 2, midY = (e.clientY + other.y) / 2;
      view.x -= (e.clientX - last.x) / 2 / view.scale;
      view.y -= (e.clientY - last.y) / 2 / view.scale;
      if (before > 0) zoomAround(midX, midY, after / before);
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    setFollow(false);
  });
  const release = (e) => pointers.delete(e.pointerId);
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomAround(e.clientX, e.clientY, Math.exp(-e.deltaY / 500));
    setFollow(false);
  }, { passive: false });
  followButton.addEventListener("click", () => setFollow(true));
  window.addEventListener("resize", () => { if (follow) fitCamera(); redraw(); });

  // --- drawing ----------------------------------------------------------------------------

  function redraw() {
    if (framePending) return;
    framePending = true;
    requestAnimationFrame(() => {
      framePending = false;
      draw();
      if (state) {
        probe.mapDrawn = Boolean(image && state.map);
        probe.drawnState = probe.states;
        probe.drawnAt = performance.timeOrigin + performance.now();
      }
    });
  }

  function draw() {
    const ratio = window.devicePixelRatio || 1;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(h * ratio);
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, w, h);
    if (!state) return;
    // From here on one unit is one cell.
    ctx.setTransform(ratio * view.scale, 0, 0, ratio * view.scale,
      -view.x * view.scale * ratio, -view.y * view.scale * ratio);
    const grid = state.grid, palette = state.palette;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, grid.width, grid.height);
    ctx.clip();
    drawMap(grid, palette);
    for (const region of state.terrain) fillPolygon(region.points, palette.terrain[region.kind]);
    for (const points of state.obstacles) fillPolygon(points, palette.obstacle);
    drawWalls(palette);
    drawLights(palette);
    const alpha = rulingAlpha();
    if (alpha > 0) drawReach(palette.ruling, alpha);
    for (const token of state.tokens) drawToken(token, palette);
    drawFog(grid);
    if (alpha > 0) drawRulingMarks(palette.ruling, alpha);
    ctx.restore();
    for (const token of state.tokens) drawPlate(token);
    if (alpha > 0) drawRulingCard(palette.ruling, alpha);
  }

  // --- a shown ruling: drawn for its time, fading over the end of it (as the players'
  // window draws it: the reach ring under the tokens, lines and path over the fog) --------

  function rulingAlpha() {
    if (rulingTimer !== null) { clearTimeout(rulingTimer); rulingTimer = null; }
    if (!ruling) return (probe.rulingAlpha = 0);
    const left = ruling.shown_ms - (performance.now() - rulingSince);
    if (left <= 0) { ruling = null; return (probe.rulingAlpha = 0); }
    const fading = left <= ruling.fade_ms;
    // The next frame while it fades; until then, one wake-up when the fade begins.
    if (fading) rulingTimer = setTimeout(redraw, 40);
    else rulingTimer = setTimeout(redraw, left - ruling.fade_ms);
    return (probe.rulingAlpha = fading ? left / Math.max(1, ruling.fade_ms) : 1);
  }

  function drawReach(colours, alpha) {
    if (!ruling.reach_cells.length) return;
    const inside = new Set(ruling.reach_cells.map(([x, y]) => `${x},${y}`));
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.fillStyle = colours.reach_fill;
    for (const [x, y] of ruling.reach_cells) ctx.fillRect(x, y, 1, 1);
    ctx.strokeStyle = colours.reach_edge;
    ctx.lineWidth = 2 / view.scale;
    ctx.beginPath(); // the ring's edge: each cell side with no reach cell beyond it
    for (const [x, y] of ruling.reach_cells) {
      if (!inside.has(`${x},${y - 1}`)) { ctx.moveTo(x, y); ctx.lineTo(x + 1, y); }
      if (!inside.has(`${x},${y + 1}`)) { ctx.moveTo(x, y + 1); ctx.lineTo(x + 1, y + 1); }
      if (!inside.has(`${x - 1},${y}`)) { ctx.moveTo(x, y); ctx.lineTo(x, y + 1); }
      if (!inside.has(`${x + 1},${y}`)) { ctx.moveTo(x + 1, y); ctx.lineTo(x + 1, y + 1); }
    }
    ctx.stroke();
    ctx.restore();
  }

  // A line of ``width`` screen pixels over a dark casing, so it reads on any map.
  function casedLine(points, colour, width, dashed) {
    for (const [stroke, extra] of [["rgba(0, 0, 0, 0.75)", 3], [colour, 0]]) {
      ctx.strokeStyle = stroke;
      ctx.lineWidth = (width + extra) / view.scale;
      ctx.setLineDash(dashed && !extra ? [8 / view.scale, 6 / view.scale] : []);
      ctx.beginPath();
      ctx.moveTo(points[0][0], points[0][1]);
      for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
      ctx.stroke();
    }
  }

  function outlineSquare(x, y, side, colour) {
    ctx.setLineDash([]);
    ctx.strokeStyle = colour;
    ctx.lineWidth = 3 / view.scale;
    ctx.strokeRect(x, y, side, side);
  }

  function drawRulingMarks(colours, alpha) {
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.lineCap = "round";
    if (ruling.target_square) {
      const [x, y, side] = ruling.target_square;
      outlineSquare(x, y, side, colours.target);
    }
    for (const line of ruling.lines) {
      casedLine([line.a, line.b], line.blocked ? colours.blocked : colours.clear, 5, line.blocked);
    }
    if (ruling.path.length > 1) {
      casedLine(ruling.path, colours.path, 6, false);
      const [x, y] = ruling.path[ruling.path.length - 1], half = ruling.footprint / 2;
      outlineSquare(x - half, y - half, ruling.footprint, colours.path);
    }
    ctx.restore();
  }

  // The caption in screen pixels beside its anchor: a title, then its reasons.
  function drawRulingCard(colours, alpha) {
    if (!ruling.caption.length) return;
    const ratio = window.devicePixelRatio || 1;
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.globalAlpha = alpha;
    const sizes = ruling.caption.map((_, i) => (i === 0 ? 20 : 15));
    const fonts = sizes.map((size, i) => `${i === 0 ? "bold " : ""}${size}px sans-serif`);
    let width = 0;
    ruling.caption.forEach(([text], i) => {
      ctx.font = fonts[i];
      width = Math.max(width, ctx.measureText(text).width);
    });
    const pad = 10, height = sizes.reduce((a, b) => a + b * 1.3, 0) + 2 * pad;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    let [left, top] = probe.cellToScreen(ruling.anchor[0], ruling.anchor[1]);
    left = Math.min(Math.max(4, left + 12), w - width - 2 * pad - 4);
    top = Math.min(Math.max(4, top - height / 2), h - height - 4);
    ctx.fillStyle = colours.card;
    ctx.fillRect(left, top, width + 2 * pad, height);
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    let y = top + pad;
    ruling.caption.forEach(([text, tone], i) => {
      ctx.font = fonts[i];
      ctx.fillStyle = colours[tone] || colours.plain;
      ctx.fillText(text, left + pad, y);
      y += sizes[i] * 1.3;
    });
    ctx.restore();
  }

  function drawMap(grid, palette) {
    if (image && state.map) {
      const m = state.map;
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(image, -m.offset_x / m.pixels_per_cell, -m.offset_y / m.pixels_per_cell,
        image.naturalWidth / m.pixels_per_cell, image.naturalHeight / m.pixels_per_cell);
      return;
    }
    ctx.fillStyle = palette.paper;
    ctx.fillRect(0, 0, grid.width, grid.height);
    ctx.strokeStyle = palette.grid_line;
    ctx.lineWidth = 1 / view.scale;
    ctx.beginPath();
    for (let c = 0; c <= grid.width; c++) { ctx.moveTo(c, 0); ctx.lineTo(c, grid.height); }
    for (let r = 0; r <= grid.height; r++) { ctx.moveTo(0, r); ctx.lineTo(grid.width, r); }
    ctx.stroke();
  }

  function fillPolygon(points, colour) {
    if (points.length < 3) return;
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.moveTo(points[0][0], points[0][1]);
    for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
    ctx.closePath();
    ctx.fill();
  }

  function drawLights(palette) {
    // What the party sees in dim light, darker (under the tokens, as on the players' window).
    for (const light of state.lights || []) {
      ctx.fillStyle = palette.dim_light;
      ctx.beginPath();
      for (const rings of light.polygons) {
        for (const ring of rings) {
          if (ring.length < 3) continue;
          ctx.moveTo(ring[0][0], ring[0][1]);
          for (const [x, y] of ring.slice(1)) ctx.lineTo(x, y);
          ctx.closePath();
        }
      }
      ctx.fill("evenodd");
    }
  }

  function drawWalls(palette) {
    ctx.lineCap = "round";
    ctx.lineWidth = Math.max(2 / view.scale, 0.1);
    for (const wall of state.walls) {
      const kind = wall.kind === "door" ? (wall.open ? "door_open" : "door") : wall.kind;
      ctx.strokeStyle = palette.walls[kind] || palette.walls.wall;
      ctx.beginPath();
      ctx.moveTo(wall.a[0], wall.a[1]);
      ctx.lineTo(wall.b[0], wall.b[1]);
      ctx.stroke();
    }
  }

  function drawToken(token, palette) {
    const side = token.space, r = side * 0.44;
    const cx = token.x + side / 2, cy = token.y + side / 2;
    const down = token.health === "down" || token.health === "dead";
    const ring = palette.health_rings[token.health];
    ctx.save();
    if (token.unseen) { // hiding or invisible, shown to its friends: see-through, dashed
      ctx.globalAlpha = 0.55;
      ctx.setLineDash([side * 0.12, side * 0.08]);
    }
    ctx.fillStyle = (down ? palette.sides_down : palette.sides)[token.side];
    ctx.strokeStyle = token.acting ? HIGHLIGHT : (ring || palette.side_outlines[token.side]);
    ctx.lineWidth = side * (token.acting ? 0.1 : 0.07);
    const square = token.shape === "square";
    ctx.beginPath();
    if (square) ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
    else ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.fill();
    const art = token.image ? picture(token.image) : null;
    if (art) drawPicture(art, cx, cy, r);
    ctx.stroke();
    ctx.fillStyle = "#ffffff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    if (!art) fillTextOnScreen(token.initials, cx, cy, side * 0.34);
    if (token.health_left !== null && token.health_left !== undefined) {
      drawHealthRing(token.health_left, cx, cy, side, palette.health_left);
    }
    if (token.health === "dead") {
      ctx.setLineDash([]);
      ctx.strokeStyle = "#dddddd";
      ctx.lineWidth = side * 0.06;
      ctx.beginPath();
      ctx.moveTo(cx - r * 0.7, cy - r * 0.7); ctx.lineTo(cx + r * 0.7, cy + r * 0.7);
      ctx.moveTo(cx + r * 0.7, cy - r * 0.7); ctx.lineTo(cx - r * 0.7, cy + r * 0.7);
      ctx.stroke();
    }
    if (token.badges) {
      ctx.setLineDash([]);
      ctx.fillStyle = HIGHLIGHT;
      fillTextOnScreen(token.badges, cx, token.y + side * 0.15, side * 0.16);
    }
    ctx.restore();
  }

  // The picture covers the disc (or square) just drawn: centred, cut, no bars.
  function drawPicture(art, cx, cy, r) {
    ctx.save();
    ctx.clip();
    const scale = (2 * r) / Math.min(art.naturalWidth, art.naturalHeight);
    const w = art.naturalWidth * scale, h = art.naturalHeight * scale;
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(art, cx - w / 2, cy - h / 2, w, h);
    ctx.restore();
    probe.picturesDrawn += 1;
  }

  // The share of hit points left, clockwise from the top, as the players' window draws it
  // (scene.paint_health_ring): a dark ring, the share over it green, amber or red.
  function drawHealthRing(left, cx, cy, side, colours) {
    const [back, high, mid, low] = colours;
    const radius = side * 0.44 - side * 0.1, width = side * 0.09;
    ctx.setLineDash([]);
    ctx.lineWidth = width;
    ctx.strokeStyle = back;
    ctx.beginPath();
    ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.lineWidth = width * 0.7;
    ctx.lineCap = "butt";
    ctx.strokeStyle = left > 0.5 ? high : left > 0.25 ? mid : low;
    ctx.beginPath();
    ctx.arc(cx, cy, radius, -Math.PI / 2, -Math.PI / 2 + left * 2 * Math.PI);
    ctx.stroke();
  }

  // Text is laid out in screen pixels: a font of a fraction of a unit, scaled up by the
  // cell transform, is laid out at that tiny size (WebKit then spaces and places it badly).
  function fillTextOnScreen(text, x, y, cells) {
    const ratio = window.devicePixelRatio || 1;
    const [left, top] = probe.cellToScreen(x, y);
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.font = `bold ${cells * view.scale}px sans-serif`;
    ctx.fillText(text, left, top);
    ctx.restore();
  }

  function drawFog(grid) {
    if (!state.fog) return;
    if (fogCells !== state.fog.cells) { // rebuilt only when a new state came
      fogCells = state.fog.cells;
      fogCanvas.width = grid.width;
      fogCanvas.height = grid.height;
      const fctx = fogCanvas.getContext("2d");
      const pixels = fctx.createImageData(grid.width, grid.height);
      for (let i = 0; i < fogCells.length; i++) {
        pixels.data[i * 4 + 3] = fogCells[i] === "0" ? 255 : fogCells[i] === "1" ? 150 : 0;
      }
      fctx.putImageData(pixels, 0, 0);
    }
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(fogCanvas, 0, 0, grid.width, grid.height);
  }

  function drawPlate(token) {
    const ratio = window.devicePixelRatio || 1;
    const [left, top] = probe.cellToScreen(token.x, token.y);
    const side = token.space * view.scale;
    if (view.scale < PLATE_MIN_SCALE) return; // cells too small: plates would hide the map
    const size = Math.max(9, Math.min(16, view.scale * 0.3));
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.font = `bold ${size}px sans-serif`;
    const width = ctx.measureText(token.label).width + 10;
    const x = left + side / 2, y = top + side + size * 0.2;
    ctx.fillStyle = "rgba(0, 0, 0, 0.7)";
    ctx.fillRect(x - width / 2, y, width, size + 4);
    ctx.fillStyle = "#ffffff";
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.fillText(token.label, x, y + 2);
  }

  connect();
})();
