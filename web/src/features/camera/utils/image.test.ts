import { describe, expect, it } from 'vitest';
import { chooseCamera, dataUrlBytes, dataUrlType, receiptFileName } from './image';

const device = (label: string, deviceId = label): MediaDeviceInfo =>
  ({ kind: 'videoinput', label, deviceId, groupId: '', toJSON: () => ({}) }) as MediaDeviceInfo;

describe('camera helpers', () => {
  it('prefers a rear, back or environment camera, else the first', () => {
    expect(chooseCamera([device('Front camera'), device('Back Camera')])?.label).toBe('Back Camera');
    expect(chooseCamera([device('Integrated'), device('camera2 0, facing REAR')])?.label).toBe(
      'camera2 0, facing REAR',
    );
    expect(chooseCamera([device('USB cam'), device('environment-facing')])?.label).toBe('environment-facing');
    expect(chooseCamera([device('/tmp/receipt.mjpeg'), device('Other')])?.label).toBe('/tmp/receipt.mjpeg');
    expect(chooseCamera([{ ...device('Mic'), kind: 'audioinput' } as MediaDeviceInfo])).toBeUndefined();
  });

  it('names files from the timestamp', () => {
    expect(receiptFileName('image/jpeg', 1714550000000)).toBe('1714550000000-receipt.jpg');
    expect(receiptFileName('application/pdf', 1714550000000)).toBe('1714550000000-receipt.pdf');
  });

  it('measures the decoded size of a data URL', () => {
    const base64 = btoa('x'.repeat(100));
    expect(dataUrlBytes(`data:image/jpeg;base64,${base64}`)).toBe(100);
    expect(dataUrlBytes(`data:image/jpeg;base64,${btoa('x'.repeat(101))}`)).toBe(101);
    expect(dataUrlType('data:image/webp;base64,AAAA')).toBe('image/webp');
  });
});
