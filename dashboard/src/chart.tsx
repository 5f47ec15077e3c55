import { useEffect, useRef } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

interface Series {
  label: string;
  data: (number | null)[];
}

export interface ChartProps {
  /** names the chart for people and for tests (`data-chart`) */
  id: string;
  title: string;
  kind: 'bar' | 'line';
  labels: string[];
  series: Series[];
  xLabel: string;
  yLabel: string;
  /** what an empty chart says instead of drawing axes */
  empty: string;
  horizontal?: boolean;
}

const colors = ['#2f6fdf', '#d9822b', '#2b9d5e', '#b23b6f'];

/** A Chart.js chart with titled axes; the drawn data is mirrored in `data-series` for tests and tools. */
export function ChartBox(p: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const isEmpty = p.labels.length === 0;
  const drawn = JSON.stringify({ labels: p.labels, series: p.series });
  useEffect(() => {
    if (isEmpty || !canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: p.kind,
      data: {
        labels: p.labels,
        datasets: p.series.map((s, i) => ({
          label: s.label,
          data: s.data,
          backgroundColor: colors[i % colors.length],
          borderColor: colors[i % colors.length],
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        indexAxis: p.horizontal ? 'y' : 'x',
        plugins: { legend: { display: p.series.length > 1 } },
        scales: {
          x: { title: { display: true, text: p.horizontal ? p.yLabel : p.xLabel } },
          y: { title: { display: true, text: p.horizontal ? p.xLabel : p.yLabel }, beginAtZero: true },
        },
      },
    });
    return () => chart.destroy();
    // redrawn only when the data or the kind of chart changes, not on every render of its parent
  }, [drawn, p.kind, p.horizontal]);
  return (
    <figure class="chart" data-chart={p.id} data-series={drawn}>
      <figcaption>{p.title}</figcaption>
      {isEmpty ? (
        <p class="empty">{p.empty}</p>
      ) : (
        <div class="plot">
          <canvas ref={canvas} />
        </div>
      )}
    </figure>
  );
}
