import { commands } from '../../store/commands';
import { updateConfig } from '../../store/store';
import { CheckboxField } from '../ui/Field';
import { useLab } from '../ui/useLab';
import { LockedFieldset } from './LockedFieldset';

/** The precision experiment: WebGL float16 textures and dynamic loss scaling. */
export function PrecisionFields() {
  const p = useLab((s) => s.config.precision);
  return (
    <LockedFieldset legend="Precision experiment" testId="precision">
      <p className="hint">
        tfjs 4.22 has no float16 dtype, so mixed precision is only predicted (Keras/CUDA column of the
        planner). WebGL can store textures in float16. Measured while building the lab (WebGL on SwiftShader,
        Tiny at 32×32): tfjs&apos; own byte count stays the same, the backend allocates 37–44% less, and
        training loss turns NaN within a few steps. Dynamic loss scaling skips those updates instead of
        breaking the weights; it does not make the model learn, because the weights and Adam&apos;s slots are
        float16 too (Keras keeps them in float32).
      </p>
      <div className="fields">
        <CheckboxField
          label="WebGL float16 textures (switches the backend to WebGL)"
          testId="precision-f16"
          checked={p.webglF16Textures}
          onChange={(on) => {
            updateConfig({ precision: { ...p, webglF16Textures: on } });
            void commands().setBackend(on ? 'webgl' : 'auto');
          }}
        />
        <div className="field">
          <label htmlFor="loss-scaling-select">Loss scaling</label>
          <select
            id="loss-scaling-select"
            data-testid="precision-loss-scaling"
            value={p.lossScaling}
            onChange={(e) =>
              updateConfig({
                precision: { ...p, lossScaling: e.target.value === 'dynamic' ? 'dynamic' : 'off' },
              })
            }
          >
            <option value="off">off</option>
            <option value="dynamic">
              dynamic (start 2^15, halve on overflow, double after 2000 good steps)
            </option>
          </select>
        </div>
      </div>
    </LockedFieldset>
  );
}
