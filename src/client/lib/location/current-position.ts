/** The device's position once, as [lon, lat] rounded to about 10 cm (an indicator's location). */
export function currentPosition(): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) return reject(new Error('no geolocation'));
    navigator.geolocation.getCurrentPosition((p) => resolve([Math.round(p.coords.longitude * 1e6) / 1e6, Math.round(p.coords.latitude * 1e6) / 1e6]), reject, {
      enableHighAccuracy: true,
      timeout: 20_000,
      maximumAge: 10_000,
    });
  });
}
