"""Speech, then its transcription, with the openai Python client against a mockrouter server (`npm start`, or the
OPENROUTER_BASE_URL it prints): the words come back exactly."""
import os
import tempfile

from openai import OpenAI

client = OpenAI(
    base_url=os.environ.get("OPENROUTER_BASE_URL", "http://127.0.0.1:4010/api/v1"),
    api_key=os.environ.get("OPENROUTER_API_KEY", "sk-test"),
    max_retries=0,
)

said = "Meet me at the station at noon."
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "said.mp3")
    client.audio.speech.create(
        model="openai/gpt-4o-mini-tts-2025-12-15", input=said, voice="alloy", response_format="mp3"
    ).write_to_file(path)
    with open(path, "rb") as audio:
        heard = client.audio.transcriptions.create(model="openai/whisper-1", file=audio)

print(heard.text)  # Meet me at the station at noon.
