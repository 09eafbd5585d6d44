from ninja import NinjaAPI

api = NinjaAPI(title="Turnframe web", version="1")
