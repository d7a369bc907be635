// Settings: capacities per memory type (with presets), spill cost model, policy, order source.
import { PRESETS, type Store, type Settings, type OrderSource, type CostModel } from '../store';
import { h } from '../lib/format';
import { parseOrderFile } from '../lib/files';
import { ORDER_TEXT, ORDER_LABEL, policyText } from '../lib/explanations';

export function mountSettings(root: HTMLElement, store: Store, notify: (msg: string, level?: 'info' | 'warn' | 'error') => void) {
  const capList = h('div', { class: 'caps' });
  const preset = h('select', { class: 'preset', 'aria-label': 'Capacity preset', 'data-testid': 'preset' },
    h('option', { value: '' }, 'Preset…'),
    ...Object.keys(PRESETS).map((k) => h('option', { value: k }, k)));
  const newType = h('input', { class: 'new-type', placeholder: 'type', 'aria-label': 'New memory type', size: 5 });
  const newCap = h('input', { class: 'new-cap', placeholder: 'bytes', type: 'number', min: 1, 'aria-label': 'New memory capacity' });
  const addBtn = h('button', { class: 'btn small', type: 'button', title: 'Add a memory type' }, '+ Add');

  const policy = h('select', { 'data-testid': 'policy', 'aria-label': 'Policy' });
  const cost = h('select', { 'data-testid': 'cost-model', 'aria-label': 'Spill cost model', title: 'contest: SPILL_IN = 2·size+150 cycles, SPILL_OUT the same (0 for a COPY_IN buffer); seed: fixedLatency + cyclesPerByte·size' },
    h('option', { value: 'contest' }, 'contest'),
    h('option', { value: 'seed' }, 'seed'));
  const fixed = h('input', { type: 'number', min: 0, 'data-testid': 'fixed-latency', 'aria-label': 'fixedLatency' });
  const perByte = h('input', { type: 'number', min: 0, 'data-testid': 'cycles-per-byte', 'aria-label': 'cyclesPerByte' });
  const seedParams = h('div', { class: 'seed-params' },
    h('label', {}, 'fixedLatency', fixed), h('label', {}, 'cyclesPerByte', perByte));
  // "graph" is the engine's default: the graph's Order, else the best of the two schedulers.
  // Without an Order in the graph the select shows "best" as the default and hides the graph option.
  const orderGraph = h('option', { value: 'graph', title: ORDER_TEXT.graph }, `${ORDER_LABEL.graph} (default)`);
  const order = h('select', { 'data-testid': 'order-source', 'aria-label': 'Order source' },
    orderGraph,
    h('option', { value: 'best', title: ORDER_TEXT.best }, ORDER_LABEL.best),
    h('option', { value: 'schedule', title: ORDER_TEXT.schedule }, ORDER_LABEL.schedule),
    h('option', { value: 'reuse', title: ORDER_TEXT.reuse }, ORDER_LABEL.reuse),
    h('option', { value: 'id', title: ORDER_TEXT.id }, ORDER_LABEL.id),
    h('option', { value: 'file' }, 'order file…'));
  const policyHelp = h('p', { class: 'help', 'data-testid': 'policy-help' });
  const orderHelp = h('p', { class: 'help', 'data-testid': 'order-help' });
  const orderInput = h('input', { type: 'file', accept: '.txt,text/plain', hidden: true, 'data-testid': 'order-file' });
  const orderInfo = h('span', { class: 'muted small order-info' });

  root.append(
    h('div', { class: 'set-row caps-head' }, h('span', { class: 'set-label' }, 'Capacity (bytes)'), preset),
    capList,
    h('div', { class: 'cap-add' }, newType, newCap, addBtn),
    h('div', { class: 'set-grid' },
      h('label', {}, h('span', { class: 'set-label' }, 'Policy'), policy),
      h('label', {}, h('span', { class: 'set-label' }, 'Spill cost'), cost),
      h('label', {}, h('span', { class: 'set-label' }, 'Order'), order)),
    seedParams,
    h('div', {}, orderInput, orderInfo),
    policyHelp,
    orderHelp,
  );

  const set = (patch: Partial<Settings>) => store.setSettings(patch);

  function renderCaps() {
    const caps = store.get().settings.capacities;
    capList.replaceChildren();
    caps.forEach(([type, value], i) => {
      const input = h('input', { type: 'number', min: 1, step: 1, value, 'data-testid': `cap-${type}`, 'aria-label': `${type} capacity` });
      input.addEventListener('input', () => {
        const v = Number(input.value);
        const ok = Number.isInteger(v) && v > 0;
        input.classList.toggle('invalid', !ok);
        if (!ok) return;
        const next = store.get().settings.capacities.map((e, j) => (j === i ? [e[0], v] : e) as [string, number]);
        set({ capacities: next });
      });
      const rm = h('button', { class: 'icon-btn', type: 'button', title: `Remove ${type}`, 'aria-label': `Remove ${type}` }, '×');
      rm.addEventListener('click', () => set({ capacities: store.get().settings.capacities.filter((_, j) => j !== i) }));
      capList.append(h('label', { class: 'cap' }, h('span', { class: 'cap-type' }, type), input, rm));
    });
  }

  function renderRest() {
    const s = store.get().settings;
    const pols = store.get().engine?.policies ?? [];
    const want = [...pols.map((p, i) => [p, i === 0 ? `${p} (default)` : p])];
    if (policy.options.length !== want.length || [...policy.options].some((o, i) => o.value !== want[i][0])) {
      policy.replaceChildren(...want.map(([v, l]) => h('option', { value: v }, l)));
    }
    policy.value = s.policy && pols.includes(s.policy) ? s.policy : pols[0] ?? '';
    cost.value = s.costModel;
    if (document.activeElement !== fixed) fixed.value = String(s.fixedLatency);
    if (document.activeElement !== perByte) perByte.value = String(s.cyclesPerByte);
    seedParams.style.display = s.costModel === 'seed' ? '' : 'none';
    // without an Order in the graph, "graph" means "best": show it as that option
    const hasOrder = store.get().view?.graphHasOrder ?? true;
    orderGraph.hidden = !hasOrder;
    orderGraph.disabled = !hasOrder;
    
    order.value = !hasOrder && s.orderSource === 'graph' ? 'best' : s.orderSource;
    const pol = policy.value;
    policyHelp.replaceChildren(h('strong', {}, `${pol}: `), policyText(pol));
    const eff = order.value as keyof typeof ORDER_TEXT | 'file';
    orderHelp.replaceChildren(h('strong', {}, 'Order: '), eff === 'file'
      ? 'the node ids of the order file, in its order.'
      : `${ORDER_TEXT[eff]}${eff === 'graph' ? ' (Without one, the best of schedule and reuse.)' : ''}${!hasOrder && eff === 'best' ? ' The default here: this graph has no "Order".' : ''}`);
    orderInfo.textContent = s.orderSource === 'file' && s.orderFile ? `${s.orderFile.name}: ${s.orderFile.ids.length} ids` : '';
  }

  preset.addEventListener('change', () => {
    const p = PRESETS[preset.value];
    if (p) set({ capacities: p.map(([k, v]) => [k, v]) });
    preset.value = '';
  });
  const add = () => {
    const t = newType.value.trim();
    const v = Number(newCap.value);
    if (!/^[A-Za-z_][\w]*$/.test(t)) return notify('A memory type is a name like L1 or UB.', 'warn');
    if (!Number.isInteger(v) || v <= 0) return notify('A capacity is a positive whole number of bytes.', 'warn');
    const caps = store.get().settings.capacities.filter(([k]) => k !== t);
    set({ capacities: [...caps, [t, v]] });
    newType.value = '';
    newCap.value = '';
  };
  addBtn.addEventListener('click', add);
  newCap.addEventListener('keydown', (e) => { if (e.key === 'Enter') add(); });
  policy.addEventListener('change', () => set({ policy: policy.value === store.get().engine?.policies[0] ? '' : policy.value }));
  cost.addEventListener('change', () => set({ costModel: cost.value as CostModel }));
  const numIn = (el: HTMLInputElement, key: 'fixedLatency' | 'cyclesPerByte') => el.addEventListener('input', () => {
    const v = Number(el.value);
    const ok = el.value !== '' && Number.isFinite(v) && v >= 0;
    el.classList.toggle('invalid', !ok);
    if (ok) set({ [key]: v });
  });
  numIn(fixed, 'fixedLatency');
  numIn(perByte, 'cyclesPerByte');
  order.addEventListener('change', () => {
    const v = order.value as OrderSource;
    if (v === 'file') {
      orderInput.value = '';
      orderInput.click();
      renderRest(); // the select shows the current source until a file is read
      return;
    }
    set({ orderSource: v });
  });
  orderInput.addEventListener('change', async () => {
    const f = orderInput.files?.[0];
    if (!f) return;
    try {
      const ids = parseOrderFile(await f.text());
      set({ orderSource: 'file', orderFile: { name: f.name, ids } });
    } catch (e) {
      notify(`${f.name}: ${(e as Error).message}`, 'error');
    }
  });

  store.subscribe((s, p) => {
    if (s.settings.capacities !== p.settings.capacities) {
      // keep focus while typing: only rebuild when the list of types changed
      const a = s.settings.capacities.map((e) => e[0]).join();
      const b = p.settings.capacities.map((e) => e[0]).join();
      const focused = capList.contains(document.activeElement);
      if (a !== b || !focused) renderCaps();
    }
    if (s.settings !== p.settings || s.engine !== p.engine || s.view?.graphHasOrder !== p.view?.graphHasOrder) renderRest();
  });
  renderCaps();
  renderRest();
}
