import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { bd09ToMercator, convertCoord, distanceMeters, type LngLat, mercatorToBd09 } from "./coords.ts";
import { MAP_MAX_ZOOM } from "./defaults.ts";
import {
  assertMarkerIcon,
  formatDistance,
  type LineStyle,
  type MapTool,
  type MapView,
  type MarkerHandle,
  type MarkerOptions,
  type PathHandle,
  type PickedRect,
  type PolygonStyle,
  type TileStatus,
  type ToolCallbacks,
} from "./overlays.ts";
import type { MapKeys, MapProvider, MapStyle, TileLayerSpec } from "./providers.ts";

/**
 * The Leaflet implementation of {@link MapView} (spec §1 map layer, §2/§4 tools). Loaded only by the AddressSelect
 * dialog (dynamic import, with Leaflet's CSS). The Leaflet map works in the provider's coordinate system (AMap/Tencent
 * GCJ-02, Tianditu WGS-84 in Web Mercator; Baidu BD-09 in Baidu's own Mercator tiling through a custom CRS); the
 * MapView API speaks the app's system (GCJ-02) and converts at the edge. Tiles that cannot load (no internet) are
 * hidden, leaving the plain background; every tool keeps working.
 */

/** The app's coordinate system (see geocode.ts APP_CRS). */
const APP = "GCJ02" as const;

/** Baidu's tiling: BD-09 degrees ↔ BD09MC metres; one pixel is one metre at zoom 18; rows count upwards. */
function baiduCrs(): L.CRS {
  const projection: L.Projection = {
    project: (ll: L.LatLng) => {
      const { x, y } = bd09ToMercator({ longitude: ll.lng, latitude: ll.lat });
      return L.point(x, y);
    },
    unproject: (p: L.Point) => {
      const ll = mercatorToBd09(p.x, p.y);
      return L.latLng(ll.latitude, ll.longitude);
    },
    bounds: L.bounds([-20037726.37, -12474104.17], [20037726.37, 12474104.17]),
  };
  return L.Util.extend({}, L.CRS.Earth, {
    code: "BD09MC",
    projection,
    transformation: new L.Transformation(1, 0, -1, 0),
    scale: (zoom: number) => 2 ** (zoom - 18),
    zoom: (scale: number) => 18 + Math.log2(scale),
    wrapLng: undefined,
    infinite: false,
  }) as L.CRS;
}

interface VendorTileOptions extends L.TileLayerOptions {
  baidu?: boolean;
}

/** A tile layer that also fills `{-y}` (TMS row), `{sx}`/`{sy}` (Tencent satellite folders) and Baidu's rows. */
const VendorTileLayer = L.TileLayer.extend({
  getTileUrl(
    this: L.TileLayer & {
      _url: string;
      _getSubdomain(c: L.Coords): string;
      _getZoomForUrl(): number;
      options: VendorTileOptions;
    },
    coords: L.Coords,
  ) {
    const z = this._getZoomForUrl();
    const invertedY = 2 ** z - 1 - coords.y;
    const y = this.options.baidu ? -coords.y - 1 : coords.y;
    return L.Util.template(this._url, {
      s: this._getSubdomain(coords),
      x: coords.x,
      y,
      z,
      "-y": invertedY,
      sx: coords.x >> 4,
      sy: invertedY >> 4,
    });
  },
}) as unknown as new (
  url: string,
  options: VendorTileOptions,
) => L.TileLayer;

/** Faint tile borders drawn locally (no network). */
const GridLines = L.GridLayer.extend({
  createTile() {
    const tile = document.createElement("div");
    tile.className = "map-grid__tile";
    return tile;
  },
}) as unknown as new (
  options: L.GridLayerOptions,
) => L.GridLayer;

const PIN_SVG =
  '<svg viewBox="0 0 24 32" width="24" height="32" aria-hidden="true"><path d="M12 0C5.4 0 0 5.2 0 11.7 0 20.5 12 32 12 32s12-11.5 12-20.3C24 5.2 18.6 0 12 0z" fill="#0093dd"/><circle cx="12" cy="11.5" r="4.6" fill="#fff"/></svg>';

function defaultIcon(label?: string): L.DivIcon {
  const text = label ? `<span class="map-marker__label">${label.replace(/[<>&]/g, "")}</span>` : "";
  return L.divIcon({ className: "map-marker", html: `${text}${PIN_SVG}`, iconSize: [24, 32], iconAnchor: [12, 32] });
}

/** Options of {@link createMapView}. */
export interface CreateMapViewOptions {
  provider: MapProvider;
  keys: MapKeys;
  /** Start centre in the app's system. */
  center: LngLat;
  zoom: number;
  maxZoom?: number;
  style?: MapStyle;
}

/** Creates a Leaflet map in `container` (which must stay in the document until {@link MapView.destroy}). */
export function createMapView(container: HTMLElement, options: CreateMapViewOptions): MapView {
  const { provider, keys } = options;
  const toMap = (p: LngLat) => {
    const c = convertCoord(p, APP, provider.crs);
    return L.latLng(c.latitude, c.longitude);
  };
  const fromMap = (ll: L.LatLng): LngLat => convertCoord({ longitude: ll.lng, latitude: ll.lat }, provider.crs, APP);

  const map = L.map(container, {
    crs: provider.projection === "baidu-mercator" ? baiduCrs() : L.CRS.EPSG3857,
    center: toMap(options.center),
    zoom: options.zoom,
    maxZoom: options.maxZoom ?? MAP_MAX_ZOOM,
    minZoom: 3,
    zoomControl: false,
    attributionControl: false,
    fadeAnimation: false,
  });

  // A faint grid drawn locally under the vendor tiles: with no internet the background stays plain but panning and
  // zooming remain visible.
  new GridLines({ zIndex: 0, className: "map-grid" }).addTo(map);

  let style: MapStyle = options.style ?? "normal";
  let tileLayers: L.TileLayer[] = [];
  let tileStatus: TileStatus = "loading";
  let loaded = 0;
  let failed = 0;
  const tileListeners = new Set<(s: TileStatus) => void>();
  const setTileStatus = (next: TileStatus) => {
    if (next === tileStatus) return;
    tileStatus = next;
    for (const l of tileListeners) l(next);
  };

  function applyTiles(): void {
    for (const layer of tileLayers) layer.remove();
    loaded = 0;
    failed = 0;
    const key = keys[provider.id] ?? "";
    const specs: TileLayerSpec[] = provider.tiles(style, key);
    if (specs.length === 0) setTileStatus("failed");
    tileLayers = specs.map((spec) => {
      const layer = new VendorTileLayer(spec.url, {
        subdomains: spec.subdomains,
        maxNativeZoom: spec.maxNativeZoom,
        maxZoom: MAP_MAX_ZOOM,
        baidu: provider.projection === "baidu-mercator",
        className: spec.overlay ? "map-tiles map-tiles--labels" : "map-tiles",
        zIndex: spec.overlay ? 2 : 1,
        crossOrigin: false,
      });
      layer.on("tileload", () => {
        loaded += 1;
        setTileStatus("ok");
      });
      layer.on("tileerror", (e: L.TileErrorEvent) => {
        // a tile that cannot load leaves the plain background (no broken-image box)
        (e.tile as HTMLElement).style.visibility = "hidden";
        failed += 1;
        if (loaded === 0 && failed >= 2) setTileStatus("failed");
      });
      return layer.addTo(map);
    });
  }
  applyTiles();

  // ---------- tools (spec §4) ----------
  let tool: MapTool | null = null;
  let callbacks: ToolCallbacks = {};
  const drawings: Record<MapTool, L.Layer[]> = { distance: [], marker: [], picker: [] };
  let measure: { points: LngLat[]; line: L.Polyline; label: L.Marker } | null = null;
  let picking: { start: L.LatLng; rect: L.Rectangle } | null = null;

  const clearTool = (t: MapTool) => {
    for (const layer of drawings[t]) layer.remove();
    drawings[t] = [];
    if (t === "distance") measure = null;
  };

  const onClick = (e: L.LeafletMouseEvent) => {
    const point = fromMap(e.latlng);
    if (tool === "distance") {
      if (!measure) {
        const line = L.polyline([], { color: "#f04a4a", weight: 3, dashArray: "6 4" }).addTo(map);
        const label = L.marker(e.latlng, {
          icon: L.divIcon({ className: "map-measure", html: "", iconSize: undefined }),
          interactive: false,
        }).addTo(map);
        measure = { points: [], line, label };
        drawings.distance.push(line, label);
      }
      measure.points.push(point);
      measure.line.addLatLng(e.latlng);
      const vertex = L.circleMarker(e.latlng, {
        radius: 4,
        color: "#f04a4a",
        fillColor: "#fff",
        fillOpacity: 1,
        weight: 2,
      });
      drawings.distance.push(vertex.addTo(map));
      let total = 0;
      for (let i = 1; i < measure.points.length; i++) total += distanceMeters(measure.points[i - 1], measure.points[i]);
      measure.label.setLatLng(e.latlng);
      measure.label.setIcon(
        L.divIcon({ className: "map-measure", html: `<span>${formatDistance(total)}</span>`, iconSize: undefined }),
      );
      callbacks.onDistance?.(total, [...measure.points]);
    } else if (tool === "marker") {
      const marker = L.marker(e.latlng, { icon: defaultIcon() }).addTo(map);
      drawings.marker.push(marker);
      callbacks.onMarker?.(point);
    }
  };

  const onContextMenu = (e: L.LeafletMouseEvent) => {
    e.originalEvent.preventDefault();
    if (tool) view.endTool();
  };

  const rectOf = (a: L.LatLng, b: L.LatLng): PickedRect => {
    const p = fromMap(a);
    const q = fromMap(b);
    return {
      southWest: { longitude: Math.min(p.longitude, q.longitude), latitude: Math.min(p.latitude, q.latitude) },
      northEast: { longitude: Math.max(p.longitude, q.longitude), latitude: Math.max(p.latitude, q.latitude) },
    };
  };

  const cancelPick = () => {
    if (!picking) return;
    picking.rect.remove();
    picking = null;
    callbacks.onPickCancel?.();
  };

  const onPointerDown = (e: PointerEvent) => {
    if (tool !== "picker" || e.button !== 0) return;
    clearTool("picker");
    const start = map.mouseEventToLatLng(e);
    const rect = L.rectangle(L.latLngBounds(start, start), { color: "#0093dd", weight: 2, fillOpacity: 0.12 }).addTo(
      map,
    );
    picking = { start, rect };
    e.preventDefault();
  };
  const onPointerMove = (e: PointerEvent) => {
    if (!picking) return;
    const box = container.getBoundingClientRect();
    if (e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom) {
      cancelPick();
      return;
    }
    picking.rect.setBounds(L.latLngBounds(picking.start, map.mouseEventToLatLng(e)));
  };
  const onPointerUp = (e: PointerEvent) => {
    if (!picking) return;
    const end = map.mouseEventToLatLng(e);
    const { start, rect } = picking;
    picking = null;
    rect.setBounds(L.latLngBounds(start, end));
    drawings.picker.push(rect);
    callbacks.onPick?.(rectOf(start, end));
  };
  const onPointerLeave = () => cancelPick();

  map.on("click", onClick);
  map.on("contextmenu", onContextMenu);
  container.addEventListener("pointerdown", onPointerDown);
  container.addEventListener("pointermove", onPointerMove);
  container.addEventListener("pointerup", onPointerUp);
  container.addEventListener("pointerleave", onPointerLeave);

  const path = (layer: L.Polyline | L.Polygon): PathHandle => ({
    remove: () => layer.remove(),
    setPoints: (points) => void layer.setLatLngs(points.map(toMap)),
  });

  const view: MapView = {
    getCenter: () => fromMap(map.getCenter()),
    setCenter: (point, zoom) => map.setView(toMap(point), zoom ?? map.getZoom(), { animate: false }),
    getZoom: () => map.getZoom(),
    zoomIn: () => map.zoomIn(),
    zoomOut: () => map.zoomOut(),
    getBounds: () => {
      const b = map.getBounds();
      return rectOf(b.getSouthWest(), b.getNorthEast());
    },
    getStyle: () => style,
    setStyle: (next) => {
      if (next === style) return;
      style = next;
      applyTiles();
    },
    addMarker(point: LngLat, markerOptions: MarkerOptions = {}): MarkerHandle {
      let icon: L.Icon | L.DivIcon;
      if (markerOptions.icon) {
        const { size, anchor } = assertMarkerIcon(markerOptions.icon);
        icon = L.icon({ iconUrl: markerOptions.icon.url, iconSize: size, iconAnchor: anchor });
      } else {
        icon = defaultIcon(markerOptions.label);
      }
      const marker = L.marker(toMap(point), { icon, title: markerOptions.title, interactive: false }).addTo(map);
      return {
        remove: () => marker.remove(),
        getPosition: () => fromMap(marker.getLatLng()),
        setPosition: (p) => marker.setLatLng(toMap(p)),
      };
    },
    addPolyline: (points, lineStyle: LineStyle = {}) =>
      path(L.polyline(points.map(toMap), { color: "#0093dd", weight: 3, ...lineStyle }).addTo(map)),
    addPolygon: (points, polygonStyle: PolygonStyle = {}) =>
      path(
        L.polygon(points.map(toMap), { color: "#0093dd", weight: 2, fillOpacity: 0.15, ...polygonStyle }).addTo(map),
      ),
    startTool(next, cbs = {}) {
      view.endTool();
      clearTool(next);
      tool = next;
      callbacks = cbs;
      container.classList.add(`map-view--tool-${next}`);
      if (next === "picker") map.dragging.disable();
    },
    endTool() {
      if (!tool) return;
      const ended = tool;
      cancelPick();
      container.classList.remove(`map-view--tool-${ended}`);
      map.dragging.enable();
      tool = null;
      const cbs = callbacks;
      callbacks = {};
      cbs.onEnd?.(ended);
    },
    activeTool: () => tool,
    clearDrawings: () => {
      for (const t of ["distance", "marker", "picker"] as const) clearTool(t);
    },
    onMoveEnd(listener) {
      const handler = () => listener(fromMap(map.getCenter()));
      map.on("moveend", handler);
      return () => map.off("moveend", handler);
    },
    onMoveStart(listener) {
      map.on("movestart", listener);
      return () => map.off("movestart", listener);
    },
    onTileStatus(listener) {
      tileListeners.add(listener);
      listener(tileStatus);
      return () => tileListeners.delete(listener);
    },
    invalidateSize: () => map.invalidateSize(),
    destroy() {
      container.removeEventListener("pointerdown", onPointerDown);
      container.removeEventListener("pointermove", onPointerMove);
      container.removeEventListener("pointerup", onPointerUp);
      container.removeEventListener("pointerleave", onPointerLeave);
      tileListeners.clear();
      map.remove();
    },
  };
  return view;
}
