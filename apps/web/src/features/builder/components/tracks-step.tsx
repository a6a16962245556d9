/**
 * Step 2, the tracks editor (spec 02 §2): the track count (1 to 20), tabs reordered by dragging or
 * by keyboard (dnd-kit, 25 px per arrow key), the active track's editor, and the two buttons.
 */
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardCode,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { horizontalListSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { LIMITS } from '@tunedrop/shared';
import type { ArtistDraft, TrackDraft } from '@tunedrop/shared/schemas/builder';
import { AlertCircle, GripVertical } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Label, Select } from '../../../components/ui/input';
import { ScrollFades, ScrollHint, useScrollEdges } from '../../../components/ui/scroll-cue';
import type { Slots } from '../../release-form';
import type { AddArtistResult } from '../model/draft';
import { TrackEditor } from './track-editor';

const step = LIMITS.keyboardDragStepPx;

/** Arrow keys move the dragged tab 25 px at a time (spec 02 §9). */
export const keyboardStep: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  switch (event.code) {
    case KeyboardCode.Right:
      return { ...currentCoordinates, x: currentCoordinates.x + step };
    case KeyboardCode.Left:
      return { ...currentCoordinates, x: currentCoordinates.x - step };
    case KeyboardCode.Down:
      return { ...currentCoordinates, y: currentCoordinates.y + step };
    case KeyboardCode.Up:
      return { ...currentCoordinates, y: currentCoordinates.y - step };
    default:
      return undefined;
  }
};

const trackLabel = (track: TrackDraft, index: number) => track.title.trim() || `Track ${index + 1}`;

function TrackTab({
  track,
  index,
  isActive,
  hasErrors,
  onSelect,
}: {
  track: TrackDraft;
  index: number;
  isActive: boolean;
  hasErrors: boolean;
  onSelect: () => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: track.id,
  });
  const label = trackLabel(track, index);
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn(
        'flex shrink-0 items-center rounded-lg border text-sm',
        isActive ? 'border-brand-500 bg-brand-600/20 text-white' : 'border-ink-700 bg-ink-900 text-zinc-300',
        isDragging && 'z-10 shadow-lg ring-2 ring-brand-400',
      )}
      data-testid="track-tab"
    >
      <button
        type="button"
        className="cursor-grab touch-none rounded-l-lg px-1.5 py-2 text-zinc-400 hover:text-white"
        aria-label={`Reorder ${label}`}
        {...attributes}
        {...listeners}
      >
        <GripVertical aria-hidden className="size-4" />
      </button>
      <button
        type="button"
        className="flex max-w-48 items-center gap-1 truncate py-2 pr-3 pl-1 text-left"
        aria-current={isActive ? 'true' : undefined}
        onClick={onSelect}
      >
        <span className="truncate">
          {index + 1}. {label}
        </span>
        {hasErrors ? (
          <>
            <AlertCircle aria-hidden className="size-4 shrink-0 text-red-400" />
            <span className="sr-only">(has errors)</span>
          </>
        ) : null}
      </button>
    </li>
  );
}

export function TracksStep({
  tracks,
  activeTrackId,
  isPro,
  artistName,
  isSpotifyConfigured,
  errors,
  slots,
  focusRequest,
  onCountChange,
  onSelectTrack,
  onMoveTrack,
  onTrackChange,
  onFileSelected,
  onFileCancel,
  onAddArtist,
  onBack,
  onContinue,
}: {
  tracks: TrackDraft[];
  activeTrackId: string | null;
  isPro: boolean;
  artistName: string;
  isSpotifyConfigured: boolean;
  errors: Record<string, Record<string, string>>;
  slots: Slots;
  /** Bumped when a failed check moved the view to the first track with errors. */
  focusRequest: number;
  onCountChange: (count: number) => void;
  onSelectTrack: (id: string) => void;
  onMoveTrack: (fromId: string, toId: string) => void;
  onTrackChange: (id: string, change: Partial<TrackDraft>) => void;
  onFileSelected: (id: string, file: File) => void;
  onFileCancel: (id: string) => void;
  onAddArtist: (
    id: string,
    list: 'primaryArtists' | 'featuredArtists',
    artist: ArtistDraft,
  ) => AddArtistResult['outcome'];
  onBack: () => void;
  onContinue: () => void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardStep }),
  );
  const activeIndex = Math.max(
    0,
    tracks.findIndex((track) => track.id === activeTrackId),
  );
  const active = tracks[activeIndex] as TrackDraft;
  const editorTop = useRef<HTMLDivElement>(null);
  const tabsRef = useRef<HTMLUListElement>(null);
  const tabEdges = useScrollEdges(tabsRef, tracks.length);

  useEffect(() => {
    if (focusRequest === 0) return;
    editorTop.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    const firstInvalid = editorTop.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    firstInvalid?.focus({ preventScroll: true });
  }, [focusRequest]);

  const onDragEnd = ({ active: dragged, over }: DragEndEvent) => {
    if (over && dragged.id !== over.id) onMoveTrack(String(dragged.id), String(over.id));
    else onSelectTrack(String(dragged.id));
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onContinue();
      }}
    >
      <Card className="space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 className="text-xl font-semibold text-white">Tracks</h2>
            <p className="mt-1 text-sm text-zinc-400">
              Add each track's audio and credits. Drag the tabs, or focus a handle and use Space and the arrow
              keys, to reorder.
            </p>
          </div>
          <div className="w-40">
            <Label htmlFor="track-count">Number of Tracks</Label>
            <Select
              id="track-count"
              value={tracks.length}
              onChange={(event) => onCountChange(Number(event.target.value))}
            >
              {Array.from({ length: LIMITS.tracksMax }, (_, index) => index + 1).map((count) => (
                <option key={count} value={count}>
                  {count}
                </option>
              ))}
            </Select>
          </div>
        </div>

        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={tracks.map((track) => track.id)} strategy={horizontalListSortingStrategy}>
            <div className="relative">
              <ul ref={tabsRef} aria-label="Tracks" className="flex gap-2 overflow-x-auto pb-2">
                {tracks.map((track, index) => (
                  <TrackTab
                    key={track.id}
                    track={track}
                    index={index}
                    isActive={track.id === active.id}
                    hasErrors={Object.keys(errors[track.id] ?? {}).length > 0}
                    onSelect={() => onSelectTrack(track.id)}
                  />
                ))}
              </ul>
              <ScrollFades edges={tabEdges} />
            </div>
            <ScrollHint edges={tabEdges} testId="track-tabs-scroll-cue">
              {`Swipe sideways to see all ${tracks.length} tracks`}
            </ScrollHint>
          </SortableContext>
        </DndContext>

        <div ref={editorTop} className="scroll-mt-4">
          <TrackEditor
            key={active.id}
            track={active}
            number={activeIndex + 1}
            isPro={isPro}
            artistName={artistName}
            isSpotifyConfigured={isSpotifyConfigured}
            errors={errors[active.id] ?? {}}
            slot={slots[active.id]}
            onChange={(change) => onTrackChange(active.id, change)}
            onFileSelected={(file) => onFileSelected(active.id, file)}
            onFileCancel={() => onFileCancel(active.id)}
            onAddArtist={(list, artist) => onAddArtist(active.id, list, artist)}
          />
        </div>

        <div className="flex flex-wrap justify-between gap-3">
          <Button variant="outline" onClick={onBack}>
            Back to Release Details
          </Button>
          <Button type="submit">Continue to Summary</Button>
        </div>
      </Card>
    </form>
  );
}
