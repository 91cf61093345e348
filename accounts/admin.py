from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "date_joined", "last_login", "is_active", "deleted_at")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined", "deleted_at")
    search_fields = ("username", "email")
    ordering = ("-date_joined",)
    readonly_fields = ("deleted_at",)
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Profile"), {"fields": ("bio", "deleted_at")}),
    )
