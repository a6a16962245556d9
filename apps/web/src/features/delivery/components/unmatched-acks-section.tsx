/** Acknowledgements that match no delivery or could not be read: kept and shown so nothing is lost. */
import { Card } from '../../../components/ui/card';
import { useUnmatchedAcks } from '../api/deliveries';
import { AckItem } from './delivery-detail-dialog';

export function UnmatchedAcksSection() {
  const acks = useUnmatchedAcks();
  // Shown only when there is something to look at: an empty section would be noise on every visit.
  if (!acks.data || acks.data.length === 0) return null;
  return (
    <section aria-labelledby="unmatched-acks-title" className="space-y-3">
      <div>
        <h2 id="unmatched-acks-title" className="text-xl font-semibold text-white">
          Unmatched acknowledgements
        </h2>
        <p className="text-sm text-zinc-400">
          Files stores wrote that name no message we sent, or that could not be read. They change no state.
        </p>
      </div>
      <Card>
        <ul className="space-y-2" aria-label="Unmatched acknowledgements">
          {acks.data.map((ack) => (
            <AckItem key={ack.id} ack={{ ...ack, fileName: `${ack.targetName}: ${ack.fileName}` }} />
          ))}
        </ul>
      </Card>
    </section>
  );
}
